import { Module } from '@nestjs/common';
import { FeedModule } from '../feed/feed.module';
import { MediaModule } from '../media/media.module';
import { ErasureEvents } from './erasure.events';
import { ErasureService } from './erasure.service';

@Module({
  imports: [FeedModule, MediaModule],
  controllers: [ErasureEvents],
  providers: [ErasureService],
})
export class ErasureModule {}
