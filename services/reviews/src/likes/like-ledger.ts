import { LikeStatus } from '@app/contracts';
import { BaseDoc, Collection, CountedIn, DuplicateKeyError, FlipFollowUp, Flipped, NewDoc, newId } from '@app/store';

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

/** A toggle's write, decided before it runs: the row it inserts (liked) or deletes. */
export interface LikeWrite {
  liked: boolean;
  rowId: string;
}

/** The like_count a toggle's write left; null when a parallel request of the same member got there first. */
export type LikeMoved = { like_count: number } | null;

/** What a toggle did in its transaction (`LikeLedger.flip`): the row it inserted, or that it unliked; and the like_count it left. */
export type LikeFlip = { liked: true; rowId: string; like_count: number } | { liked: false; like_count: number };

/** Runs a toggle's write, e.g. inside an event's emitWith; must return the write's result. */
export type LikeWriter = (write: LikeWrite, run: () => Promise<LikeMoved>) => Promise<LikeMoved>;

/** The writes that go with each outcome of a toggle (`LikeLedger.flipWithCommit`). */
export type FlipOutcomes = { inserted: FlipFollowUp[]; deleted: FlipFollowUp[] };

function likeFlip(done: Flipped, rowId: string): LikeFlip {
  return done.inserted ? { liked: true, rowId, like_count: done.count } : { liked: false, like_count: done.count };
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

  /** The state after this toggle, or as a parallel request of the same member left it when that one got there first. */
  async toggle(subjectId: string, userId: string, writer: LikeWriter = (_write, run) => run()): Promise<LikeStatus> {
    const existing = await this.row(subjectId, userId);
    const write = { liked: !existing, rowId: existing?._id ?? newId() };
    const moved = await writer(write, () =>
      write.liked ? this.insert(subjectId, userId, write.rowId) : this.delete(subjectId, write.rowId),
    );
    if (!moved) return this.status(subjectId, userId);
    return { liked: write.liked, like_count: moved.like_count };
  }

  /**
   * A toggle inside a transaction (the caller's), where the write itself decides: the insert of a
   * new row likes, and when the member's row is there already, its delete unlikes; the count moves
   * with it (`Collection.flip`: one statement on PostgreSQL). Nothing is read first, and the
   * like_count is the one the write left. Null when a parallel request of the same member removed
   * the row the insert met.
   */
  async flip(subjectId: string, userId: string, counted: CountedIn): Promise<LikeFlip | null> {
    const rowId = newId();
    const done = await this.rows.flip({ ...this.newRow(subjectId, userId), _id: rowId }, { [this.key]: subjectId, user_id: userId }, counted);
    return done && likeFlip(done, rowId);
  }

  /** Whether the store may flip with the COMMIT (`flipWithCommit`), so that a transaction for it is worth opening. */
  get flipsWithCommit(): boolean {
    return this.rows.flipWithCommit !== undefined;
  }

  /**
   * `flip` queued with the transaction's COMMIT, with the writes of each outcome that `then` names
   * given the new row's id (`Collection.flipWithCommit`). Its outcome is known once committed;
   * undefined where the store cannot, and the caller flips in turn.
   */
  async flipWithCommit(subjectId: string, userId: string, counted: CountedIn, then: (rowId: string) => Promise<FlipOutcomes>): Promise<{ outcome: Promise<LikeFlip | null> } | undefined> {
    if (!this.flipsWithCommit) return undefined;
    const rowId = newId();
    const queued = await this.rows.flipWithCommit!({ ...this.newRow(subjectId, userId), _id: rowId }, { [this.key]: subjectId, user_id: userId }, counted, await then(rowId));
    if (!queued) return undefined;
    const outcome = queued.outcome.then((done) => done && likeFlip(done, rowId));
    outcome.catch(() => undefined); // a transaction that threw first: nobody asks
    return { outcome };
  }

  async status(subjectId: string, userId: string): Promise<LikeStatus> {
    const [likeCount, mine] = await Promise.all([this.subject.likeCount(subjectId), this.row(subjectId, userId)]);
    return { liked: mine !== null, like_count: likeCount };
  }

  async forget(subjectId: string): Promise<void> {
    await this.rows.deleteMany({ [this.key]: subjectId });
  }

  private async insert(subjectId: string, userId: string, rowId: string): Promise<LikeMoved> {
    try {
      await this.rows.insert({ ...this.newRow(subjectId, userId), _id: rowId });
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
    return { like_count: await this.subject.bump(subjectId, 1) };
  }

  private async delete(subjectId: string, rowId: string): Promise<LikeMoved> {
    if ((await this.rows.deleteOne({ _id: rowId })) === 0) return null;
    return { like_count: await this.subject.bump(subjectId, -1) };
  }

  private row(subjectId: string, userId: string): Promise<D | null> {
    return this.rows.findOne({ [this.key]: subjectId, user_id: userId });
  }
}
