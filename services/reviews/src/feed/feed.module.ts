import { Module } from '@nestjs/common';
import { PLATFORM_CONFIG } from '@app/platform';
import { KeywordFilterModule } from '../filters/keyword-filter.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { TagsModule } from '../tags/tags.module';
import { FeedController } from './feed.controller';
import { FeedEvents } from './feed.events';
import { FeedService } from './feed.service';
import { FEED_CACHE, FEED_SETTINGS, feedCache, feedSettings } from './feed.settings';

@Module({
  imports: [ReviewsModule, TagsModule, KeywordFilterModule],
  controllers: [FeedController, FeedEvents],
  providers: [
    FeedService,
    { provide: FEED_CACHE, inject: [PLATFORM_CONFIG], useFactory: feedCache },
    { provide: FEED_SETTINGS, useFactory: () => feedSettings() },
  ],
  exports: [FeedService],
})
export class FeedModule {}
