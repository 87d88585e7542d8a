import { Inject, Injectable } from '@nestjs/common';
import { MEDIA_URL_PREFIX } from '@app/contracts';
import { BaseDoc, Collection, Filter, STORE, Store } from '@app/store';
import { activitiesCollection } from '../activities/activity.collection';
import { COMMENT_NOT_HIDDEN, CommentDoc, commentsCollection } from '../comments/comment.collection';
import { FeedService } from '../feed/feed.service';
import { LikeDoc, likesCollection } from '../likes/like.collection';
import { listItemsCollection, ListDoc, listsCollection } from '../lists/lists.collection';
import { mediaCollection } from '../media/media.collection';
import { MediaService } from '../media/media.service';
import { ProductLikeDoc, productLikesCollection } from '../products/product-like.collection';
import { ProductDoc, productsCollection } from '../products/product.collection';
import { FollowEdgeDoc, followEdgesCollection, FollowerCountDoc, followerCountsCollection } from '../read-models/follow-graph.collection';
import { privacyCollection } from '../audience/privacy.collection';
import { reportsCollection } from '../reports/report.collection';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';
import { ReviewCountsDoc, reviewCountsCollection } from '../reviews/review-counts.collection';
import { reviewVersionsCollection } from '../reviews/review-version.collection';
import { savedCollection } from '../saved/saved.collection';
import { tagFollowsCollection } from '../tags/tag-follow.collection';

/**
 * Erases a deleted member from the reviews service (issue 20 §5): their likes, comments,
 * reviews (with everything others left on them), saved items, followed tags, lists, activities, reports,
 * uploads and place in the follow graph. Counters on others' things are recounted without the
 * member's rows while those rows still exist (set, never decremented), then the rows go; so
 * every step gives the same result when a crash makes it run again. Products they added stay
 * in the shared catalogue (others review, like and list them) under their bare id, which now
 * shows as "Deleted member"; a picture of theirs on one is taken off with their uploads.
 */
@Injectable()
export class ErasureService {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly reviewCounts: Collection<ReviewCountsDoc>;
  private readonly likes: Collection<LikeDoc>;
  private readonly comments: Collection<CommentDoc>;
  private readonly products: Collection<ProductDoc>;
  private readonly productLikes: Collection<ProductLikeDoc>;
  private readonly lists: Collection<ListDoc>;
  private readonly edges: Collection<FollowEdgeDoc>;
  private readonly followerCounts: Collection<FollowerCountDoc>;

  constructor(
    @Inject(STORE) private readonly store: Store,
    private readonly feed: FeedService,
    private readonly media: MediaService,
  ) {
    this.reviews = store.collection(reviewsCollection);
    this.reviewCounts = store.collection(reviewCountsCollection);
    this.likes = store.collection(likesCollection);
    this.comments = store.collection(commentsCollection);
    this.products = store.collection(productsCollection);
    this.productLikes = store.collection(productLikesCollection);
    this.lists = store.collection(listsCollection);
    this.edges = store.collection(followEdgesCollection);
    this.followerCounts = store.collection(followerCountsCollection);
  }

  async erase(userId: string): Promise<void> {
    await this.eraseLikes(userId);
    await this.eraseProductLikes(userId);
    await this.eraseComments(userId);
    await this.eraseReviews(userId);
    await this.store.collection(savedCollection).deleteMany({ user_id: userId });
    await this.store.collection(tagFollowsCollection).deleteMany({ user_id: userId });
    await this.eraseLists(userId);
    await this.store.collection(activitiesCollection).deleteMany({ user_id: userId });
    await this.store.collection(reportsCollection).deleteMany({ reporter_id: userId });
    await this.eraseUploads(userId);
    await this.eraseFromFollowGraph(userId);
    await this.store.collection(privacyCollection).deleteMany({ _id: userId });
  }

  private eraseLikes(userId: string): Promise<void> {
    return this.recountWithout(userId, this.likes, 'review_id', this.reviewCounts, 'like_count');
  }

  private eraseProductLikes(userId: string): Promise<void> {
    return this.recountWithout(userId, this.productLikes, 'product_id', this.products, 'like_count');
  }

  private eraseComments(userId: string): Promise<void> {
    return this.recountWithout(userId, this.comments, 'review_id', this.reviewCounts, 'comment_count', COMMENT_NOT_HIDDEN);
  }

  /**
   * The member's rows in `rows` point at documents of `target` by `key`: each such document's
   * `counter` is set to the others' rows (those matching `counted` too), then the member's rows go.
   * (A review's counts row exists once anything was counted on it: the member's row was.)
   */
  private async recountWithout<T extends BaseDoc & { user_id: string }, D extends BaseDoc>(
    userId: string,
    rows: Collection<T>,
    key: keyof T & string,
    target: Collection<D>,
    counter: string,
    counted: Filter = {},
  ): Promise<void> {
    const touched = distinct(await rows.find({ user_id: userId }, { projection: { [key]: 1 } }), (r) => r[key] as string | null);
    for (const id of touched) {
      const count = await rows.count({ [key]: id, user_id: { $ne: userId }, ...counted });
      await target.updateOne({ _id: id }, { $set: { [counter]: count } });
    }
    await rows.deleteMany({ user_id: userId });
  }

  /**
   * The products' rating aggregates are recounted without the member's reviews first; then each
   * review goes after what hangs on it (others' likes, comments, saves, reports, activities, its
   * history). Timelines go last, once no review of theirs is left to rebuild them from.
   */
  private async eraseReviews(userId: string): Promise<void> {
    const theirs = await this.reviews.find({ user_id: userId }, { projection: { _id: 1, product_id: 1 } });
    for (const productId of distinct(theirs, (r) => r.product_id)) await this.recountRatings(productId, userId);
    for (const review of theirs) {
      const about = { review_id: review._id };
      await this.likes.deleteMany(about);
      await this.comments.deleteMany(about);
      await this.store.collection(savedCollection).deleteMany({ kind: 'review', item_id: review._id });
      await this.store.collection(reportsCollection).deleteMany(about);
      await this.store.collection(activitiesCollection).deleteMany(about);
      await this.store.collection(reviewVersionsCollection).deleteMany(about);
      await this.reviewCounts.deleteOne({ _id: review._id });
      await this.reviews.deleteOne({ _id: review._id });
    }
    const followers = (await this.edges.find({ followee_id: userId }, { projection: { follower_id: 1 } })).map((e) => e.follower_id);
    await this.feed.dropTimelines([userId, ...followers]);
  }

  private async recountRatings(productId: string, userId: string): Promise<void> {
    const rated = await this.reviews.find(
      { product_id: productId, user_id: { $ne: userId }, rating: { $ne: null }, hidden_at: { $exists: false } },
      { projection: { rating: 1 } },
    );
    const rating_sum = rated.reduce((sum, r) => sum + (r.rating ?? 0), 0);
    await this.products.updateOne({ _id: productId }, { $set: { review_count: rated.length, rating_sum } });
  }

  private async eraseLists(userId: string): Promise<void> {
    const ids = (await this.lists.find({ user_id: userId }, { projection: { _id: 1 } })).map((l) => l._id);
    if (ids.length > 0) await this.store.collection(listItemsCollection).deleteMany({ list_id: { $in: ids } });
    await this.lists.deleteMany({ user_id: userId });
  }

  /** Pictures of theirs come off the products first, so a rerun still knows which they were. */
  private async eraseUploads(userId: string): Promise<void> {
    const ids = (await this.store.collection(mediaCollection).find({ owner_id: userId }, { projection: { _id: 1 } })).map((m) => m._id);
    if (ids.length > 0) {
      await this.products.updateMany({ image: { $in: ids.map((id) => `${MEDIA_URL_PREFIX}${id}`) } }, { $set: { image: null, image_alt: null } });
    }
    await this.media.eraseOwnedBy(userId);
  }

  /** The follower counts of those they followed are recounted without them, then their edges go. */
  private async eraseFromFollowGraph(userId: string): Promise<void> {
    const followees = (await this.edges.find({ follower_id: userId }, { projection: { followee_id: 1 } })).map((e) => e.followee_id);
    for (const followeeId of followees) {
      const follower_count = await this.edges.count({ followee_id: followeeId, follower_id: { $ne: userId } });
      await this.followerCounts.updateOne({ _id: followeeId }, { $set: { follower_count } });
    }
    await this.edges.deleteMany({ $or: [{ follower_id: userId }, { followee_id: userId }] });
    await this.followerCounts.deleteMany({ _id: userId });
  }
}

function distinct<T>(rows: readonly T[], key: (row: T) => string | null): string[] {
  return [...new Set(rows.map(key).filter((k): k is string => k !== null))];
}
