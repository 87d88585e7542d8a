import { Inject, Injectable } from '@nestjs/common';
import { ActivityQueryDto, ActivityView } from '@app/contracts';
import { Collection, DuplicateKeyError, Filter, FlipFollowUp, newId, STORE, Store } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { ProductsService } from '../products/products.service';
import { ReviewDoc } from '../reviews/review.collection';
import { ReviewsService } from '../reviews/reviews.service';
import { UserCardsService } from '../users/user-cards.service';
import { ActivityDoc, activitiesCollection } from './activity.collection';

export type NewActivity = Omit<ActivityDoc, '_id'>;

/** A member's like activity of a review. */
function likeActivityOf(userId: string, reviewId: string): Filter {
  return { type: 'review_liked', user_id: userId, review_id: reviewId };
}

@Injectable()
export class ActivitiesService {
  private readonly activities: Collection<ActivityDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly graph: FollowGraphService,
    private readonly audience: AudienceService,
    private readonly cards: UserCardsService,
    private readonly reviews: ReviewsService,
    private readonly products: ProductsService,
  ) {
    this.activities = store.collection(activitiesCollection);
  }

  /** Idempotent per source event. */
  async record(activity: NewActivity): Promise<void> {
    try {
      await this.activities.insert(activity);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** `record` for each: one insert for the lot when none was recorded yet, else one by one. */
  async recordMany(activities: NewActivity[]): Promise<void> {
    try {
      await this.activities.insertMany(activities);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const activity of activities) await this.record(activity);
    }
  }

  /** squad.updated: join activities show the squad's current name (the newest rename wins). */
  async squadRenamed(squadId: string, name: string, updatedAt: string): Promise<void> {
    await this.activities.updateMany(
      {
        type: 'squad_join',
        'data.squad.id': squadId,
        $or: [{ squad_name_at: { $exists: false } }, { squad_name_at: { $lte: updatedAt } }],
      },
      { $set: { 'data.squad.name': name, squad_name_at: updatedAt } },
    );
  }

  /** The review part of a review activity, or null when the review is gone already. */
  async reviewData(reviewId: string): Promise<ActivityView['data'] | null> {
    const review = (await this.reviews.findMany([reviewId]))[0];
    return review ? this.dataOf(review) : null;
  }

  private async dataOf(review: ReviewDoc): Promise<ActivityView['data']> {
    const product = review.product_id ? await this.products.findById(review.product_id) : null;
    return {
      review: { id: review._id, title: review.title, rating: review.rating },
      product: product ? { id: product._id, name: product.name } : null,
    };
  }

  /**
   * The liker's review_liked activity, written with the like row (`sourceId`: the like row's id, new,
   * so the insert cannot be refused): inside the like's transaction it goes with the commit.
   */
  async recordLike(userId: string, review: ReviewDoc, sourceId: string, at: string): Promise<void> {
    await this.activities.writeWithCommit({ insert: [await this.likeActivity(userId, review, sourceId, at)] });
  }

  /** The liker's activity as the writes of a like toggle's outcomes (`Collection.flipWithCommit`): recorded with a like, gone with an unlike. */
  async likeFollowUps(userId: string, review: ReviewDoc, sourceId: string, at: string): Promise<{ inserted: FlipFollowUp; deleted: FlipFollowUp }> {
    return {
      inserted: { collection: this.activities, insert: { _id: newId(), ...(await this.likeActivity(userId, review, sourceId, at)) } },
      deleted: { collection: this.activities, delete: likeActivityOf(userId, review._id) },
    };
  }

  private async likeActivity(userId: string, review: ReviewDoc, sourceId: string, at: string): Promise<NewActivity> {
    return {
      type: 'review_liked',
      user_id: userId,
      data: await this.dataOf(review),
      review_id: review._id,
      review_author_id: review.user_id,
      source_id: sourceId,
      created_at: at,
    };
  }

  async forgetReview(reviewId: string): Promise<void> {
    await this.activities.deleteMany({ review_id: reviewId });
  }

  /** Nothing reads it back before the commit: on PostgreSQL it goes with the COMMIT. */
  async forgetLike(userId: string, reviewId: string): Promise<void> {
    await this.activities.deleteWithCommit(likeActivityOf(userId, reviewId));
  }

  /** The viewer's own activities and those of the members they follow and did not mute. */
  async feed(viewerId: string, query: ActivityQueryDto, skip: number, limit: number) {
    const [followees, hidden] = await Promise.all([this.graph.followees(viewerId), this.audience.hiddenInLists(viewerId)]);
    const muted = new Set(hidden);
    const actors = [viewerId, ...followees.filter((id) => !muted.has(id))];
    return this.list(hidden, { user_id: { $in: actors } }, query, skip, limit);
  }

  /** A member's activities are theirs to show like their reviews: empty when the viewer may not see those. */
  async ofUser(viewerId: string, userId: string, query: ActivityQueryDto, skip: number, limit: number) {
    if (!(await this.audience.canSee(viewerId, userId))) return { items: [], total: 0 };
    return this.list(await this.audience.hiddenAuthors(viewerId), { user_id: userId }, query, skip, limit);
  }

  /** Leaves out activities about reviews the viewer may not see. */
  private async list(hidden: string[], base: Filter, query: ActivityQueryDto, skip: number, limit: number) {
    const filter: Filter = {
      ...base,
      ...(query.type && { type: query.type }),
      ...(hidden.length > 0 && { review_author_id: { $nin: hidden } }),
    };
    const [docs, total] = await Promise.all([
      this.activities.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.activities.count(filter),
    ]);
    const cards = await this.cards.cardsFor(docs.map((d) => d.user_id));
    const items: ActivityView[] = docs.map((d) => ({
      id: d._id,
      type: d.type,
      user: cards.get(d.user_id)!,
      data: d.data,
      created_at: d.created_at,
    }));
    return { items, total };
  }
}
