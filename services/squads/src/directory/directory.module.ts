import { Module } from '@nestjs/common';
import { DirectoryEvents } from './directory.events';
import { DirectoryService } from './directory.service';

@Module({
  controllers: [DirectoryEvents],
  providers: [DirectoryService],
  exports: [DirectoryService],
})
export class DirectoryModule {}
