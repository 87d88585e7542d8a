import { Inject, Injectable } from '@nestjs/common';
import { SquadWeek } from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { WeekActivityDoc, weekActivityCollection } from './week-activity.collection';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A squad's week from its chat's messages and its members' reviews (issue 43 §2: a figure is
 * computed from data or not shown). Rows older than two weeks say nothing any more and are dropped.
 */
@Injectable()
export class WeekActivityReadModel {
  private readonly rows: Collection<WeekActivityDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.rows = store.collection(weekActivityCollection);
  }

  async messageSent(messageId: string, squadId: string, senderId: string, at: string): Promise<void> {
    await this.add([{ _id: `message:${messageId}`, kind: 'message', squad_id: squadId, user_id: senderId, at }]);
  }

  /** A deleted message is no longer in its week, even when its sending arrives after. */
  async messageDeleted(messageId: string, senderId: string, at: string): Promise<void> {
    await this.settle({ _id: `message:${messageId}`, kind: 'message', user_id: senderId, at }, { deleted: true });
  }

  /** A run of review.created: one insert and one prune for the lot when none of them was there yet. */
  async reviewsCreated(reviews: ReadonlyArray<{ reviewId: string; authorId: string; at: string }>): Promise<void> {
    await this.add(reviews.map(({ reviewId, authorId, at }) => ({ _id: `review:${reviewId}`, kind: 'review', user_id: authorId, at })));
  }

  async reviewDeleted(reviewId: string, authorId: string, at: string): Promise<void> {
    await this.settle({ _id: `review:${reviewId}`, kind: 'review', user_id: authorId, at }, { deleted: true });
  }

  /** Of a hide and a show, the newer one holds, whichever arrives last, and one that comes before the review's creation too. */
  async reviewHidden(reviewId: string, authorId: string, hidden: boolean, at: string): Promise<void> {
    await this.settle({ _id: `review:${reviewId}`, kind: 'review', user_id: authorId, at }, { hidden, hidden_changed_at: at });
  }

  /**
   * The last 7 days of a squad: its chat's messages, and the reviews its members wrote while members
   * (a new squad does not take in what its founder wrote the day before).
   */
  async week(squadId: string, members: ReadonlyArray<{ id: string; joined_at: string }>, now = Date.now()): Promise<SquadWeek> {
    const since = new Date(now - WEEK_MS).toISOString();
    const joined = new Map(members.map((m) => [m.id, m.joined_at]));
    const [messages, written] = await Promise.all([
      this.rows.count({ squad_id: squadId, kind: 'message', at: { $gte: since }, deleted: { $ne: true } }),
      joined.size === 0
        ? []
        : this.rows.find({ user_id: { $in: [...joined.keys()] }, kind: 'review', at: { $gte: since }, hidden: { $ne: true }, deleted: { $ne: true } }, { projection: { user_id: 1, at: 1 } }),
    ]);
    return { messages, reviews: written.filter((r) => r.at >= (joined.get(r.user_id) ?? r.at)).length };
  }

  /**
   * Inserts the rows; one already there (a redelivery, or a deletion or moderation that came first)
   * takes the subject's own fields and keeps its state. The rows past two weeks go once per call.
   */
  private async add(docs: WeekActivityDoc[]): Promise<void> {
    try {
      await this.rows.insertMany(docs);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // None of them went in (or, on an engine without transactions, some did: both are fine one by one).
      for (const doc of docs) await this.insertOrTake(doc);
    }
    await this.rows.deleteMany({ at: { $lt: new Date(Date.now() - 2 * WEEK_MS).toISOString() } });
  }

  private async insertOrTake(doc: WeekActivityDoc): Promise<void> {
    try {
      await this.rows.insert(doc);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.rows.updateOne({ _id: doc._id }, { $set: { user_id: doc.user_id, at: doc.at, ...(doc.squad_id && { squad_id: doc.squad_id }) } });
    }
  }

  /**
   * Sets `state` on the row (a hide or a show only over an older one); a row not there yet is
   * written from `placeholder` with it, for its creation to complete.
   */
  private async settle(placeholder: WeekActivityDoc, state: Pick<WeekActivityDoc, 'deleted'> | Pick<WeekActivityDoc, 'hidden' | 'hidden_changed_at'>): Promise<void> {
    const at = 'hidden_changed_at' in state ? state.hidden_changed_at : undefined;
    const older = at ? { $or: [{ hidden_changed_at: { $exists: false } }, { hidden_changed_at: { $lte: at } }] } : {};
    for (;;) {
      if ((await this.rows.updateOne({ _id: placeholder._id, ...older }, { $set: state })).matched > 0) return;
      if (await this.rows.findById(placeholder._id)) return; // a newer hide or show set it
      try {
        await this.rows.insert({ ...placeholder, ...state });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // written meanwhile: compare again
      }
    }
  }
}
