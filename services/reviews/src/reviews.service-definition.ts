import { blocksCollection, FoldedKeysModule, mutesCollection, relationVersionsCollection, ServiceDefinition, userCardsCollection } from '@app/platform';
import { activitiesCollection } from './activities/activity.collection';
import { ActivitiesModule } from './activities/activities.module';
import { commentsCollection } from './comments/comment.collection';
import { CommentsModule } from './comments/comments.module';
import { CountersModule } from './counters/counters.module';
import { AudienceModule } from './audience/audience.module';
import { followEdgesCollection, followerCountsCollection } from './read-models/follow-graph.collection';
import { privacyCollection } from './audience/privacy.collection';
import { contextStampsCollection } from './audience/viewer-context.collection';
import { FeedModule } from './feed/feed.module';
import { likesCollection } from './likes/like.collection';
import { LikesModule } from './likes/likes.module';
import { mediaCollection } from './media/media.collection';
import { registerMediaUploads } from './media/media-upload';
import { MediaModule } from './media/media.module';
import { productsCollection, productSearchKey } from './products/product.collection';
import { productLikesCollection } from './products/product-like.collection';
import { catalogueStampCollection } from './products/catalogue-stamp.collection';
import { ProductsModule } from './products/products.module';
import { reportsCollection } from './reports/report.collection';
import { ReportsModule } from './reports/reports.module';
import { reviewsCollection } from './reviews/review.collection';
import { reviewCountsCollection } from './reviews/review-counts.collection';
import { reviewVersionsCollection } from './reviews/review-version.collection';
import { ReviewsModule } from './reviews/reviews.module';
import { ImportModule } from './import/import.module';
import { SearchModule } from './search/search.module';
import { listItemsCollection, listsCollection } from './lists/lists.collection';
import { ListsModule } from './lists/lists.module';
import { savedCollection } from './saved/saved.collection';
import { SavedModule } from './saved/saved.module';
import { TrendingModule } from './trending/trending.module';
import { UsersModule } from './users/users.module';
import { ErasureModule } from './erasure/erasure.module';
import { LinkCardsModule } from './link-cards/link-cards.module';
import { ReviewsExport } from './export/reviews-export.controller';
import { keywordFiltersCollection } from './filters/keyword-filter.collection';
import { KeywordFilterModule } from './filters/keyword-filter.module';
import { moderationLogCollection } from './moderation/moderation-log.collection';
import { ModerationModule } from './moderation/moderation.module';
import { siteRolesCollection } from './read-models/site-roles.collection';
import { tagFollowsCollection } from './tags/tag-follow.collection';
import { backfillsCollection } from './tags/tags.backfill';
import { TagsModule } from './tags/tags.module';

/** services/reviews (ARCHITECTURE §1): products, media, reviews, likes, comments, feed, activities, saved, lists, trending, tags. */
export const reviewsService: ServiceDefinition = {
  name: 'reviews',
  collections: [
    userCardsCollection,
    productsCollection,
    catalogueStampCollection,
    mediaCollection,
    reviewsCollection,
    reviewCountsCollection,
    reviewVersionsCollection,
    likesCollection,
    commentsCollection,
    savedCollection,
    listsCollection,
    listItemsCollection,
    followEdgesCollection,
    followerCountsCollection,
    activitiesCollection,
    privacyCollection,
    contextStampsCollection,
    blocksCollection,
    mutesCollection,
    productLikesCollection,
    reportsCollection,
    keywordFiltersCollection,
    moderationLogCollection,
    siteRolesCollection,
    tagFollowsCollection,
    backfillsCollection,
    relationVersionsCollection,
  ],
  imports: [
    ReviewsExport,
    UsersModule,
    AudienceModule,
    ProductsModule,
    MediaModule,
    ReviewsModule,
    ImportModule,
    LikesModule,
    CommentsModule,
    FeedModule,
    ActivitiesModule,
    SavedModule,
    ListsModule,
    TrendingModule,
    ReportsModule,
    CountersModule,
    KeywordFilterModule,
    ModerationModule,
    TagsModule,
    FoldedKeysModule.backfill({ collection: productsCollection, key: productSearchKey }),
    SearchModule,
    ErasureModule,
    LinkCardsModule,
  ],
  configureHttp: registerMediaUploads,
};
