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

  /** Insert only: a review deleted before its creation arrived stays deleted (one hidden first becomes active, hidden). */
  async reviewCreated(reviewId: string, authorId: string): Promise<void> {
    try {
      await this.rows.insert({ _id: reviewKey(reviewId), kind: 'review', user_id: authorId, active: true });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.rows.updateOne({ _id: reviewKey(reviewId), active: { $exists: false } }, { $set: { active: true } });
    }
  }

  /** A moderator hid (or showed again) the review: it leaves (or rejoins) the author's count, whatever order the events come in. */
  async reviewHidden(reviewId: string, authorId: string, hidden: boolean): Promise<void> {
    await this.rows.updateOne({ _id: reviewKey(reviewId) }, { $set: { kind: 'review', user_id: authorId, hidden } }, { upsert: true });
  }

  async reviewDeleted(reviewId: string, authorId: string): Promise<void> {
    await this.set(reviewKey(reviewId), 'review', authorId, false);
  }

  /** Squad events are keyed by squad, so joins and leaves of one squad arrive in order. */
  async squadMembership(squadId: string, userId: string, active: boolean): Promise<void> {
    await this.set(squadKey(squadId, userId), 'squad', userId, active);
  }

  async squadDeleted(squadId: string, memberIds: string[]): Promise<void> {
    for (const userId of memberIds) await this.squadMembership(squadId, userId, false);
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
}
