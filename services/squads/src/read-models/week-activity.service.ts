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
    await this.add({ _id: `message:${messageId}`, kind: 'message', squad_id: squadId, user_id: senderId, at });
  }

  /** A deleted message is no longer in its week. */
  async messageDeleted(messageId: string): Promise<void> {
    await this.rows.deleteOne({ _id: `message:${messageId}` });
  }

  async reviewCreated(reviewId: string, authorId: string, at: string): Promise<void> {
    await this.add({ _id: `review:${reviewId}`, kind: 'review', user_id: authorId, at });
  }

  async reviewDeleted(reviewId: string): Promise<void> {
    await this.rows.deleteOne({ _id: `review:${reviewId}` });
  }

  /** Only a known review's row changes: one hidden before its creation arrived is not counted anyway once it is old. */
  async reviewHidden(reviewId: string, hidden: boolean): Promise<void> {
    await this.rows.updateOne({ _id: `review:${reviewId}` }, { $set: { hidden } });
  }

  /**
   * The last 7 days of a squad: its chat's messages, and the reviews its members wrote while members
   * (a new squad does not take in what its founder wrote the day before).
   */
  async week(squadId: string, members: ReadonlyArray<{ id: string; joined_at: string }>, now = Date.now()): Promise<SquadWeek> {
    const since = new Date(now - WEEK_MS).toISOString();
    const joined = new Map(members.map((m) => [m.id, m.joined_at]));
    const [messages, written] = await Promise.all([
      this.rows.count({ squad_id: squadId, kind: 'message', at: { $gte: since } }),
      joined.size === 0
        ? []
        : this.rows.find({ user_id: { $in: [...joined.keys()] }, kind: 'review', at: { $gte: since }, hidden: { $ne: true } }, { projection: { user_id: 1, at: 1 } }),
    ]);
    return { messages, reviews: written.filter((r) => r.at >= (joined.get(r.user_id) ?? r.at)).length };
  }

  /** Insert only (a redelivery finds its row); the rows past two weeks go with each new one. */
  private async add(doc: WeekActivityDoc): Promise<void> {
    try {
      await this.rows.insert(doc);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    await this.rows.deleteMany({ at: { $lt: new Date(Date.now() - 2 * WEEK_MS).toISOString() } });
  }
}
