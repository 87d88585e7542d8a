import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { CounterRepairPass, CountersFixed, fixCounters, PLATFORM_CONFIG, PlatformConfig, SERVICE_LOGGER, tally } from '@app/platform';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { FollowEdgeDoc, followEdgesCollection, FollowerCountDoc, followerCountsCollection } from '../read-models/follow-graph.collection';
import { COMMENT_NOT_HIDDEN, CommentDoc, commentsCollection } from '../comments/comment.collection';
import { LikeDoc, likesCollection } from '../likes/like.collection';
import { ProductDoc, productsCollection } from '../products/product.collection';
import { ProductLikeDoc, productLikesCollection } from '../products/product-like.collection';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';
import { ReviewCountsDoc, reviewCountsCollection } from '../reviews/review-counts.collection';

/**
 * The reviews service's stored counters, each recomputed from the rows it counts, exactly as the
 * code that moves it defines it:
 * - review_counts.like_count: like rows of the review (LikeLedger; blocked likers count too);
 * - review_counts.comment_count: comment rows of the review not hidden by a moderator (blocked commenters count too);
 * - products.review_count / rating_sum: reviews of the product with a rating not hidden by a moderator,
 *   and their ratings' sum (ReviewsService.create / update / remove / setHidden through ProductsService.applyRating);
 * - products.like_count: product like rows (absent on older products: 0);
 * - follower_counts.follower_count: follow edges to the member (FollowGraphService; no document: 0).
 * Rows are counted by the store (`countBy`: on SQLite a GROUP BY read from the index, no document
 * parsed); the documents to fix are read once with a projection (reviews feed both the review
 * counters, as documents to fix, and the product aggregates, as rows, counted in memory).
 */
@Injectable()
export class ReviewsCountersRepair extends CounterRepairPass {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly reviewCounts: Collection<ReviewCountsDoc>;
  private readonly likes: Collection<LikeDoc>;
  private readonly comments: Collection<CommentDoc>;
  private readonly products: Collection<ProductDoc>;
  private readonly productLikes: Collection<ProductLikeDoc>;
  private readonly edges: Collection<FollowEdgeDoc>;
  private readonly followerCounts: Collection<FollowerCountDoc>;

  constructor(@Inject(STORE) store: Store, @Inject(PLATFORM_CONFIG) config: PlatformConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super(config, logger, store);
    this.reviews = store.collection(reviewsCollection);
    this.reviewCounts = store.collection(reviewCountsCollection);
    this.likes = store.collection(likesCollection);
    this.comments = store.collection(commentsCollection);
    this.products = store.collection(productsCollection);
    this.productLikes = store.collection(productLikesCollection);
    this.edges = store.collection(followEdgesCollection);
    this.followerCounts = store.collection(followerCountsCollection);
  }

  async repair(): Promise<CountersFixed> {
    const reviews = await this.reviews.find({}, { projection: { product_id: 1, rating: 1, hidden_at: 1 } });
    return {
      ...(await this.reviewCounters(reviews)),
      ...(await this.productCounters(reviews)),
      ...(await this.followerCountsFix()),
    };
  }

  /** Counts rows are fixed where they differ, and made for a review with likes or comments but none. */
  private async reviewCounters(reviews: ReviewDoc[]): Promise<CountersFixed> {
    const likes = await this.likes.countBy({}, 'review_id');
    const comments = await this.comments.countBy(COMMENT_NOT_HIDDEN, 'review_id');
    const counts = await this.reviewCounts.find({});
    const fixed = {
      'reviews.like_count': await fixCounters(this.reviewCounts, counts, ['like_count'], (d) => likes.get(d._id) ?? 0),
      'reviews.comment_count': await fixCounters(this.reviewCounts, counts, ['comment_count'], (d) => comments.get(d._id) ?? 0),
    };
    const known = new Set(counts.map((d) => d._id));
    for (const { _id } of reviews) {
      const [like_count, comment_count] = [likes.get(_id) ?? 0, comments.get(_id) ?? 0];
      if (known.has(_id) || like_count + comment_count === 0) continue;
      try {
        await this.reviewCounts.insert({ _id, like_count, comment_count });
        if (like_count > 0) fixed['reviews.like_count']++;
        if (comment_count > 0) fixed['reviews.comment_count']++;
      } catch (err) {
        // Made meanwhile by a like or a comment: left alone, like any counter moved since it was read.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    return fixed;
  }

  private async productCounters(reviews: ReviewDoc[]): Promise<CountersFixed> {
    const rated = reviews.filter((r) => typeof r.rating === 'number' && !r.hidden_at);
    const reviewCount = tally(rated, (r) => r.product_id);
    const ratingSum = tally(rated, (r) => r.product_id, (r) => r.rating as number);
    const likes = await this.productLikes.countBy({}, 'product_id');
    const products = await this.products.find({}, { projection: { rating_sum: 1, review_count: 1, like_count: 1 } });
    return {
      'products.rating': await fixCounters(this.products, products, ['review_count', 'rating_sum'], (d, f) =>
        (f === 'review_count' ? reviewCount : ratingSum).get(d._id) ?? 0,
      ),
      'products.like_count': await fixCounters(this.products, products, ['like_count'], (d) => likes.get(d._id) ?? 0),
    };
  }

  /** A member with edges but no count document gets one; a document without edges goes to 0. */
  private async followerCountsFix(): Promise<CountersFixed> {
    const followers = await this.edges.countBy({}, 'followee_id');
    const counts = await this.followerCounts.find({});
    let fixed = await fixCounters(this.followerCounts, counts, ['follower_count'], (d) => followers.get(d._id) ?? 0);
    const known = new Set(counts.map((d) => d._id));
    for (const [followeeId, n] of followers) {
      if (typeof followeeId !== 'string' || known.has(followeeId)) continue;
      try {
        await this.followerCounts.insert({ _id: followeeId, follower_count: n });
        fixed++;
      } catch (err) {
        // Created meanwhile by another replica's handler: left alone, like any counter moved since it was read.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    return { 'follower_counts.follower_count': fixed };
  }
}
