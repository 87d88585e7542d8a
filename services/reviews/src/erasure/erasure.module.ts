import { Module } from '@nestjs/common';
import { FeedModule } from '../feed/feed.module';
import { MediaModule } from '../media/media.module';
import { ReviewCardCacheModule } from '../reviews/review-card-cache';
import { ErasureEvents } from './erasure.events';
import { ErasureService } from './erasure.service';

@Module({
  imports: [FeedModule, MediaModule, ReviewCardCacheModule],
  controllers: [ErasureEvents],
  providers: [ErasureService],
})
export class ErasureModule {}
