import { Module } from '@nestjs/common';
import { RelationsEvents } from './relations.events';
import { RelationsService } from './relations.service';

@Module({
  controllers: [RelationsEvents],
  providers: [RelationsService],
  exports: [RelationsService],
})
export class RelationsModule {}
