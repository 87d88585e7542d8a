/**
 * The document store port (ARCHITECTURE §3). Services see only these types; the engine
 * (SQLite embedded; PostgreSQL or MongoDB beyond one machine) is chosen by STORE at boot.
 *
 * Filters and updates use the common subset of MongoDB: equality, $in, $nin, $ne,
 * $gt/$gte/$lt/$lte, $exists, $regex, $or, $and; updates $set, $unset, $inc, $push,
 * $addToSet, $pull; upsert. Never build a filter from raw client input: DTOs first.
 */
export interface BaseDoc {
  _id: string;
}

export type Filter = Record<string, unknown>;
export type Update = Record<string, Record<string, unknown>>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  upserted: boolean;
}

export interface IndexDef {
  /** One field or several (compound) with their direction: the fields a query matches by equality. */
  fields: Record<string, 1 | -1>;
  /**
   * Trailing fields that only order the matches (a page sorted by created_at). MongoDB indexes
   * them after `fields` and sorts from the index; so does SQLite (one expression index per declaration).
   */
  orderBy?: Record<string, 1 | -1>;
  unique?: boolean;
  /** Leave documents without the field(s) out of the index (needed for optional unique fields). */
  sparse?: boolean;
}

export interface CollectionDef<T extends BaseDoc> {
  readonly name: string;
  readonly indexes: readonly IndexDef[];
  /** String fields `search` looks words up in (a full-text index: FTS5 on SQLite, tsvector + GIN on PostgreSQL, a text index on MongoDB). */
  readonly text?: readonly string[];
  /**
   * Documents read by id kept decoded in memory, at most this many (SQLite only: it can tell when
   * another process wrote; docs/decisions/store.md). For what nearly every page reads by id.
   */
  readonly cacheById?: number;
  /**
   * Counts by filter kept in memory, at most this many, dropped at any write to the collection
   * (SQLite only, as `cacheById`). For a count every view asks of a collection written less often.
   */
  readonly cacheCounts?: number;
  /** Phantom: carries the document type to `store.collection(def)`. */
  readonly __doc?: T;
}

/** A value `countBy` groups on: what a field holding one scalar holds (a missing field counts as null). */
export type GroupKey = string | number | boolean | null;

/** A page of `search`: at most `limit` matches after skipping `skip`, best first. */
export interface SearchOptions {
  skip?: number;
  limit?: number;
}

/** What `incrementEach` adds to one document: `inc` as a `$inc` would. */
export interface Increment {
  id: string;
  inc: Record<string, number>;
}

export type NewDoc<T extends BaseDoc> = Omit<T, '_id'> & { _id?: string };

/** Where a collection's documents are counted (see `flip`): the number in `field` of document `id` of `collection`. */
export interface CountedIn {
  collection: Collection<BaseDoc>;
  id: string;
  field: string;
}

/** What `flip` did: inserted its document or deleted the one its key matched, and the count it left. */
export interface Flipped {
  inserted: boolean;
  count: number;
}

/**
 * A write that goes with one outcome of `flipWithCommit`: a document inserted (with the count the
 * flip left put at `countAt`, a path into it, when given), or the documents `delete` matches deleted.
 */
export type FlipFollowUp =
  | { collection: Collection<BaseDoc>; insert: BaseDoc; countAt?: readonly string[] }
  | { collection: Collection<BaseDoc>; delete: Filter };

/** What `flipWithCommit` queued: what the flip did, known once the transaction has committed (rejected if it did not). */
export interface QueuedFlip {
  outcome: Promise<Flipped | null>;
}

export interface Collection<T extends BaseDoc> {
  readonly name: string;
  insert(doc: NewDoc<T>): Promise<T>;
  insertMany(docs: NewDoc<T>[]): Promise<T[]>;
  findById(id: string): Promise<T | null>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /**
   * How many matching documents hold each value of `field`, for a field holding one scalar (an
   * id, a status, a rating); documents where it is missing or null count under `null`. The
   * engine groups (GROUP BY, `$group`), so no document is read into the process: this is how
   * the boot-time counter repair counts rows (docs/decisions/store.md).
   */
  countBy(filter: Filter, field: string): Promise<Map<GroupKey, number>>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /**
   * `$inc` of each listed document (by id) by its own amounts, in one statement where the engine
   * can (`updateMany` moves all its matches by one amount: a bulk import's counters, each product
   * its own rating sum, took a statement per distinct amount). An id listed twice adds both; a
   * document that does not exist is left out. Returns how many documents matched.
   */
  incrementEach(amounts: readonly Increment[]): Promise<number>;
  /** Applies the update to one matching document and returns it as it is after the update. */
  findOneAndUpdate(filter: Filter, update: Update, options?: UpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  /**
   * Rows nothing reads back before the commit (an outbox's): inside `transaction`, inserted and
   * deleted by id as it commits (PostgreSQL sends them in the COMMIT's round trip instead of one
   * each before it), so a rollback leaves them unwritten, and a refused insert (a duplicate key)
   * fails the commit: the whole transaction rolls back. Outside one, and on engines without
   * transactions, written at once.
   */
  writeWithCommit(rows: { insert?: NewDoc<T>[]; remove?: string[] }): Promise<void>;
  /**
   * `updateMany` whose counts nobody reads, nor its documents before the commit (a conversation's
   * last message, unread counters): inside `transaction`, applied as it commits (PostgreSQL: in
   * the COMMIT's round trip where the update is one plain statement that cannot be refused, else
   * at once). Outside one, and on engines without transactions, at once.
   */
  updateWithCommit(filter: Filter, update: Update): Promise<void>;
  /** `deleteMany` whose count nobody reads: inside `transaction`, applied as it commits (as `updateWithCommit`). */
  deleteWithCommit(filter: Filter): Promise<void>;
  /**
   * A membership toggled with its count (a like and the review's like_count): inserts `doc`, or,
   * when a unique index refuses it, deletes the document `match` finds; then moves `counted` by one
   * (up for the insert, its document created when missing; down for the delete, never below 0).
   * One statement inside a PostgreSQL transaction (a round trip instead of three to five), the
   * steps in turn elsewhere. Null when the insert was refused and `match` found nothing (a parallel
   * request deleted it first): nothing changed.
   */
  flip(doc: NewDoc<T>, match: Filter, counted: CountedIn): Promise<Flipped | null>;
  /**
   * `flip` with the writes of each outcome (`then.inserted` after an insert, `then.deleted` after a
   * delete), all sent with the open transaction's COMMIT: a like's transaction is one round trip
   * instead of two (PostgreSQL: one statement of data-modifying WITHs). The outcome is known once
   * the transaction committed, so the caller does not wait for it inside. Undefined where the
   * engine cannot (no transaction open, a part that is not plain SQL, SQLite, MongoDB): the caller
   * then flips and writes in turn. Optional, as `Store.transaction` is.
   */
  flipWithCommit?(doc: NewDoc<T>, match: Filter, counted: CountedIn, then: { inserted: FlipFollowUp[]; deleted: FlipFollowUp[] }): Promise<QueuedFlip | undefined>;
  /**
   * Documents of `filter` whose `text` fields hold every word of `words`, most relevant first
   * (bm25 on SQLite, ts_rank on PostgreSQL, textScore on MongoDB). Every word but the last matches whole; the last word
   * matches as a prefix ("cof" finds coffee: search as you type). All case- and diacritic-insensitively
   * with Turkish folding (İ=I=ı=i, ş=s: `foldText`). No word in `words` matches nothing. Only for
   * a collection declared with `text` fields (docs/decisions/store.md).
   */
  search(words: string, filter: Filter, options?: SearchOptions): Promise<T[]>;
}

export interface Store {
  readonly engine: 'sqlite' | 'mongo' | 'postgres';
  collection<T extends BaseDoc>(def: CollectionDef<T>): Collection<T>;
  /** Opens the engine and builds every declared index; fails fast when the engine is unreachable. */
  open(defs: readonly CollectionDef<BaseDoc>[]): Promise<void>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Runs `fn` so that every operation of this store inside it commits or rolls back together
   * (a throw rolls back). Only engines that can offer it cheaply do (SQLite, PostgreSQL); callers fall back
   * to another way (the outbox's intent and proof) where it is absent.
   */
  transaction?<R>(fn: () => Promise<R>): Promise<R>;
  /**
   * Whether the engine knows that everyone who used this data before closed it cleanly (no
   * process died with it open); engines that cannot tell leave it out. SQLite: no write-ahead log
   * was left behind.
   */
  closedCleanlyBefore?(): boolean;
  /**
   * Runs `fn` (a request's work, begun when it arrived) so that its cached reads share one check of
   * the other processes' commits, taken at its first such read, however many turns of the event
   * loop they span: everything its client saw committed had committed before it began. Engines whose
   * check costs no round trip (SQLite's `data_version`) or that keep no caches leave it out.
   */
  withOneLook?<R>(fn: () => Promise<R>): Promise<R>;
}

export function defineCollection<T extends BaseDoc>(
  name: string,
  indexes: IndexDef[] = [],
  options: { text?: string[]; cacheById?: number; cacheCounts?: number } = {},
): CollectionDef<T> {
  return {
    name,
    indexes,
    ...(options.text && { text: options.text }),
    ...(options.cacheById && { cacheById: options.cacheById }),
    ...(options.cacheCounts && { cacheCounts: options.cacheCounts }),
  };
}
