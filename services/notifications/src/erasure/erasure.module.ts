import { Module } from '@nestjs/common';
import { ErasureEvents } from './erasure.events';
import { ErasureService } from './erasure.service';

@Module({
  controllers: [ErasureEvents],
  providers: [ErasureService],
})
export class ErasureModule {}
