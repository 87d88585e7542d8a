import { LikeStatus } from '@app/contracts';
import { BaseDoc, Collection, DuplicateKeyError, NewDoc } from '@app/store';

/** What is liked (a review, a product): where its like_count lives. */
export interface LikeSubject {
  /** The current like_count; throws the subject's 404 when it does not exist. */
  likeCount(subjectId: string): Promise<number>;
  /** Moves like_count by one (never below 0) and returns it. */
  bump(subjectId: string, delta: 1 | -1): Promise<number>;
}

/** A like row: who liked, when, and (in a field named by the ledger) what. */
export interface LikeRow extends BaseDoc {
  user_id: string;
  created_at: string;
}

export interface LikeToggle extends LikeStatus {
  /** False when a parallel request of the same member got there first and this one changed nothing. */
  changed: boolean;
}

/**
 * One kind of like: a row per (subject, member) under a unique index, and the subject's counter.
 * The row decides every toggle: the counter moves only when this request inserted or deleted it,
 * so like_count equals the number of rows under any concurrency.
 */
export class LikeLedger<D extends LikeRow> {
  constructor(
    private readonly rows: Collection<D>,
    /** The row field holding the subject's id. */
    private readonly key: keyof D & string,
    private readonly subject: LikeSubject,
    private readonly newRow: (subjectId: string, userId: string) => NewDoc<D>,
  ) {}

  async toggle(subjectId: string, userId: string): Promise<LikeToggle> {
    const existing = await this.row(subjectId, userId);
    if (existing) {
      if ((await this.rows.deleteOne({ _id: existing._id })) === 0) return this.unchanged(subjectId, userId);
      return { liked: false, like_count: await this.subject.bump(subjectId, -1), changed: true };
    }
    try {
      await this.rows.insert(this.newRow(subjectId, userId));
    } catch (err) {
      if (err instanceof DuplicateKeyError) return this.unchanged(subjectId, userId);
      throw err;
    }
    return { liked: true, like_count: await this.subject.bump(subjectId, 1), changed: true };
  }

  async status(subjectId: string, userId: string): Promise<LikeStatus> {
    const [likeCount, mine] = await Promise.all([this.subject.likeCount(subjectId), this.row(subjectId, userId)]);
    return { liked: mine !== null, like_count: likeCount };
  }

  /** Which of these subjects the member likes. */
  async likedAmong(subjectIds: string[], userId: string): Promise<Set<string>> {
    if (subjectIds.length === 0) return new Set();
    const rows = await this.rows.find({ user_id: userId, [this.key]: { $in: subjectIds } });
    return new Set(rows.map((r) => String(r[this.key])));
  }

  async forget(subjectId: string): Promise<void> {
    await this.rows.deleteMany({ [this.key]: subjectId });
  }

  private row(subjectId: string, userId: string): Promise<D | null> {
    return this.rows.findOne({ [this.key]: subjectId, user_id: userId });
  }

  /** Someone else's request of the same member decided: report the state as it is. */
  private async unchanged(subjectId: string, userId: string): Promise<LikeToggle> {
    return { ...(await this.status(subjectId, userId)), changed: false };
  }
}
