import { Inject, Injectable } from '@nestjs/common';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { ActivityDoc, activitiesCollection } from './activity.collection';

const reviewKey = (reviewId: string) => `review:${reviewId}`;
const squadKey = (squadId: string, userId: string) => `squad:${squadId}:${userId}`;

/**
 * Reviews written and squads joined, from other services' events. Counted on read from
 * these rows, so a redelivered, late or out-of-order event can never skew a number.
 */
@Injectable()
export class ActivityService {
  private readonly rows: Collection<ActivityDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.rows = store.collection(activitiesCollection);
  }

  /** A run of review.created: one insert for the lot when none of them was there yet, else one by one. */
  async reviewsCreated(reviews: ReadonlyArray<{ reviewId: string; authorId: string }>): Promise<void> {
    try {
      await this.rows.insertMany(reviews.map(({ reviewId, authorId }) => ({ _id: reviewKey(reviewId), kind: 'review' as const, user_id: authorId, active: true })));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const { reviewId, authorId } of reviews) await this.reviewCreated(reviewId, authorId);
    }
  }

  /** Insert only: a review deleted before its creation arrived stays deleted (one hidden first becomes active, hidden). */
  async reviewCreated(reviewId: string, authorId: string): Promise<void> {
    try {
      await this.rows.insert({ _id: reviewKey(reviewId), kind: 'review', user_id: authorId, active: true });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.rows.updateOne({ _id: reviewKey(reviewId), active: { $exists: false } }, { $set: { active: true } });
    }
  }

  /**
   * A moderator hid (or showed again) the review: it leaves (or rejoins) the author's count, whatever
   * order the events come in, its creation's included; of a hide and a show, the newer one holds.
   */
  async reviewHidden(reviewId: string, authorId: string, hidden: boolean, at: string): Promise<void> {
    await this.setNewest(reviewKey(reviewId), 'hidden_changed_at', at, { kind: 'review', user_id: authorId, hidden });
  }

  async reviewDeleted(reviewId: string, authorId: string): Promise<void> {
    await this.set(reviewKey(reviewId), 'review', authorId, false);
  }

  /**
   * Of a join and a leave of one squad, the newer one holds: squad events are keyed by squad, but a
   * failed delivery comes again behind later ones (Redis Streams), so they may arrive in any order.
   */
  async squadMembership(squadId: string, userId: string, active: boolean, at: string): Promise<void> {
    await this.setNewest(squadKey(squadId, userId), 'membership_changed_at', at, { kind: 'squad', user_id: userId, active });
  }

  async squadDeleted(squadId: string, memberIds: string[], at: string): Promise<void> {
    for (const userId of memberIds) await this.squadMembership(squadId, userId, false, at);
  }

  reviews(userId: string): Promise<number> {
    return this.rows.count({ user_id: userId, kind: 'review', active: true, hidden: { $ne: true } });
  }

  squads(userId: string): Promise<number> {
    return this.rows.count({ user_id: userId, kind: 'squad', active: true });
  }

  private async set(id: string, kind: ActivityDoc['kind'], userId: string, active: boolean): Promise<void> {
    await this.rows.updateOne({ _id: id }, { $set: { kind, user_id: userId, active } }, { upsert: true });
  }

  /**
   * Sets `fields` on row `id` unless an event newer than `at` set them (its time in `version`); a tie
   * applies, so a redelivery of the same event changes nothing.
   */
  private async setNewest(
    id: string,
    version: 'hidden_changed_at' | 'membership_changed_at',
    at: string,
    fields: Pick<ActivityDoc, 'kind' | 'user_id' | 'active' | 'hidden'>,
  ): Promise<void> {
    for (;;) {
      const older = { _id: id, $or: [{ [version]: { $exists: false } }, { [version]: { $lte: at } }] };
      if ((await this.rows.updateOne(older, { $set: { ...fields, [version]: at } })).matched > 0) return;
      if (await this.rows.findById(id)) return; // a newer event set them
      try {
        await this.rows.insert({ _id: id, ...fields, [version]: at });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // another delivery inserted it meanwhile: compare again
      }
    }
  }
}
