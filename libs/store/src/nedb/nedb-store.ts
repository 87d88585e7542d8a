import Datastore from '@seald-io/nedb';
import { mkdirSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../ids';
import { DuplicateKeyError, StoreUnavailableError } from '../store.errors';
import { toNedbFilter } from './nedb-filter';
import {
  BaseDoc,
  Collection,
  CollectionDef,
  Filter,
  FindOptions,
  IndexDef,
  NewDoc,
  Store,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../store.port';

export interface NedbStoreOptions {
  /** Folder for this service's data files; absent means in memory only (fast tests). */
  dir?: string;
  /**
   * NeDB appends every change; compaction rewrites the file from memory, blocking the event loop
   * for the whole collection. Each collection checks this often whether its stale lines are
   * worth it (see `Db.worthCompacting`).
   */
  compactEveryMs?: number;
}

type Row = Record<string, unknown>;

// NeDB's own line format (dates as $$date and so on), so the data files stay NeDB's.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serialize } = require('@seald-io/nedb/lib/model.js') as { serialize(doc: unknown): string };

/** The parts of @seald-io/nedb 4's internals the query planner and the group commit rely on. */
interface NedbInternals {
  indexes: Record<string, { getMatching(value: unknown): Row[] }>;
  executor: { pushAsync<T>(task: () => Promise<T>, forceQueuing?: boolean): Promise<T> };
  persistence: {
    filename: string;
    modes: { fileMode: number };
    persistNewStateAsync(docs: Row[]): Promise<void>;
    persistCachedDatabaseAsync(): Promise<void>;
  };
  _insertAsync(doc: Row | Row[]): Promise<unknown>;
  _updateAsync(query: Row, update: Row, options: Row): Promise<{ numAffected: number; upsert?: boolean }>;
  _removeAsync(query: Row, options: Row): Promise<number>;
}

/**
 * Appends to one data file, one `appendFile` for everything queued while the previous one
 * was in flight (group commit). Each caller's promise settles when its own lines are written.
 */
export class AppendQueue {
  private text = '';
  private waiting: { resolve(): void; reject(err: unknown): void }[] = [];
  private writing?: Promise<void>;

  constructor(
    private readonly file: string,
    private readonly mode: number,
  ) {}

  append(text: string): Promise<void> {
    const written = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.text += text;
    this.writing ??= this.drain();
    return written;
  }

  /** Settles once everything appended so far is in the file (or has failed). */
  idle(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const [text, batch] = [this.text, this.waiting];
      this.text = '';
      this.waiting = [];
      try {
        await appendFile(this.file, text, { encoding: 'utf8', mode: this.mode });
        batch.forEach((w) => w.resolve());
      } catch (err) {
        batch.forEach((w) => w.reject(err));
      }
    }
    this.writing = undefined;
  }
}

/** A value NeDB's indexes can look up by equality (what its own planner calls a basic match). */
const isPlainValue = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date || v === null;

/** Below this many stale lines a file is never rewritten: small files cost little either way. */
const MIN_STALE_LINES = 1000;

class Db extends Datastore<Row> {
  /** Set while `written` runs an operation: where that operation's file write goes. */
  private grouping?: { write?: Promise<void> };
  /** Lines of the file that an update or removal has superseded since it was last rewritten. */
  private staleLines = 0;

  constructor(options: { filename?: string; inMemoryOnly?: boolean }) {
    super(options);
    if (options.inMemoryOnly) return;
    // Group commit. NeDB runs one operation at a time per collection and each write waits for
    // its own appendFile, so N concurrent writes (and every read queued behind them) wait for N
    // appends in a row. Here an operation changes memory and queues its lines; the executor
    // moves on while the caller still waits until its lines are in the file; lines keep their
    // order and whatever piles up during one append goes out in the next.
    const self = this as unknown as NedbInternals & Record<'insertAsync' | 'updateAsync' | 'removeAsync', unknown>;
    const { persistence } = self;
    const appends = new AppendQueue(persistence.filename, persistence.modes.fileMode);
    persistence.persistNewStateAsync = async (docs: Row[]) => {
      const text = docs.map((doc) => serialize(doc) + '\n').join('');
      if (!text) return;
      const write = appends.append(text);
      // Outside `written` (index creation) the operation itself waits, as NeDB's does.
      if (!this.grouping) return write;
      const earlier = this.grouping.write;
      this.grouping.write = earlier ? Promise.all([earlier, write]).then(() => undefined) : write;
      this.grouping.write.catch(() => undefined); // the caller of `written` gets the failure
    };
    // Compaction rewrites the file from memory: appends still in flight must land first.
    const rewrite = persistence.persistCachedDatabaseAsync.bind(persistence);
    persistence.persistCachedDatabaseAsync = async () => {
      await appends.idle();
      await rewrite();
      this.staleLines = 0;
    };
    self.insertAsync = (doc: Row | Row[]) => this.written(() => self._insertAsync(doc));
    self.updateAsync = (query: Row, update: Row, opts: Row = {}) =>
      this.written(async () => {
        const result = await self._updateAsync(query, update, opts);
        if (!result.upsert) this.staleLines += result.numAffected;
        return result;
      });
    self.removeAsync = (query: Row, opts: Row = {}) =>
      this.written(async () => {
        const removed = await self._removeAsync(query, opts);
        this.staleLines += 2 * removed; // the document's line and its deletion marker
        return removed;
      });
  }

  /**
   * Compaction only pays when the file has grown well past its live data: at least as many
   * stale lines as live documents (and MIN_STALE_LINES). An append-mostly collection such as
   * notifications is then rarely rewritten, an outbox often, and each rewrite is cheap.
   */
  worthCompacting(): boolean {
    return this.staleLines >= MIN_STALE_LINES && this.staleLines >= this.getAllData().length;
  }

  /** Rewrites the file when stale lines are there; at close, any at all. */
  async compactIf(atClose: boolean): Promise<boolean> {
    if (atClose ? this.staleLines === 0 : !this.worthCompacting()) return false;
    await this.compactDatafileAsync();
    return true;
  }

  /** Runs a write in NeDB's queue and settles once its lines are in the file. */
  private async written<T>(operation: () => Promise<T>): Promise<T> {
    const group: { write?: Promise<void> } = {};
    const result = await (this as unknown as NedbInternals).executor.pushAsync(async () => {
      this.grouping = group;
      try {
        return await operation();
      } finally {
        this.grouping = undefined;
      }
    });
    await group.write;
    return result;
  }

  // NeDB's own ids (16 random chars) would only appear on upserts; ours match every other
  // engine's and stay time-ordered. Overrides an internal hook of @seald-io/nedb 4.
  _createNewId(): string {
    return newId();
  }

  /**
   * Candidate documents for a query. NeDB takes the first single-field index with an equality
   * and only then a compound one; a compound index whose every field is matched by equality
   * is narrower (`recipient_id` and `is_read` over just `recipient_id`), so it goes first.
   * The result is still filtered by the full query: only the amount scanned changes.
   */
  _getRawCandidates(query: Row): Row[] {
    const { indexes } = this as unknown as NedbInternals;
    for (const name of Object.keys(indexes)) {
      if (!name.includes(',')) continue;
      const fields = name.split(',');
      if (fields.every((f) => isPlainValue(query[f]))) {
        return indexes[name].getMatching(Object.fromEntries(fields.map((f) => [f, query[f]])));
      }
    }
    return (Datastore.prototype as unknown as { _getRawCandidates(q: Row): Row[] })._getRawCandidates.call(this, query);
  }
}

/** A data file remembers every index it was given: one no longer declared would still be built at each load. */
async function dropUndeclaredIndexes(db: Db, declared: Set<string>): Promise<void> {
  const { indexes } = db as unknown as NedbInternals;
  for (const name of Object.keys(indexes)) if (!declared.has(name)) await db.removeIndexAsync(name);
}

type NedbIndex = { fieldName: string | string[]; unique: boolean; sparse: boolean };

/**
 * The NeDB indexes for the declared ones. NeDB uses a compound index only when every one of its
 * fields is matched by equality, where MongoDB also uses it for its leading field; so each
 * compound index also gets a plain index on its leading field (follower_id of (follower_id,
 * followee_id)), or those lookups scan the whole collection. `orderBy` fields are left out.
 */
export function nedbIndexes(indexes: readonly IndexDef[]): NedbIndex[] {
  const out: NedbIndex[] = [];
  const add = (fields: string[], unique: boolean, sparse: boolean) => {
    const fieldName = fields.length === 1 ? fields[0] : fields;
    if (!out.some((i) => nedbIndexName(i.fieldName) === nedbIndexName(fieldName))) out.push({ fieldName, unique, sparse });
  };
  for (const index of indexes) add(Object.keys(index.fields), index.unique ?? false, index.sparse ?? false);
  for (const index of indexes) add(Object.keys(index.fields).slice(0, 1), false, false);
  return out;
}

/** The name NeDB files an index under: its fields, sorted, comma-joined. */
function nedbIndexName(fieldName: string | string[]): string {
  return [fieldName].flat().sort().join(',');
}

function asDuplicate(collection: string, err: unknown): unknown {
  const e = err as { errorType?: string; key?: unknown; message?: string };
  if (e && e.errorType === 'uniqueViolated') return new DuplicateKeyError(collection, String(e.key ?? e.message));
  return err;
}

class NedbCollection<T extends BaseDoc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly db: Db,
  ) {}

  async insert(doc: NewDoc<T>): Promise<T> {
    try {
      return (await this.db.insertAsync({ ...doc, _id: doc._id ?? newId() })) as unknown as T;
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  async insertMany(docs: NewDoc<T>[]): Promise<T[]> {
    if (docs.length === 0) return [];
    try {
      const rows = docs.map((d) => ({ ...d, _id: d._id ?? newId() }));
      return (await this.db.insertAsync(rows)) as unknown as T[];
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    if (!options.sort) {
      return (await this.db.findOneAsync(toNedbFilter(filter), options.projection ?? {})) as unknown as T | null;
    }
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.db.findAsync(toNedbFilter(filter), options.projection ?? {});
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await cursor) as unknown as T[];
  }

  count(filter: Filter): Promise<number> {
    return this.db.countAsync(toNedbFilter(filter)) as unknown as Promise<number>;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, false, options.upsert ?? false);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, true, false);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    try {
      const res = await this.db.updateAsync(toNedbFilter(filter), update, {
        multi: false,
        upsert: options.upsert ?? false,
        returnUpdatedDocs: true,
      });
      return (res.affectedDocuments as unknown as T | null) ?? null;
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.db.removeAsync(toNedbFilter(filter), { multi: false });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.db.removeAsync(toNedbFilter(filter), { multi: true });
  }

  private async update(filter: Filter, update: Update, multi: boolean, upsert: boolean): Promise<UpdateResult> {
    try {
      const res = await this.db.updateAsync(toNedbFilter(filter), update, { multi, upsert });
      return { matched: res.numAffected, modified: res.numAffected, upserted: Boolean(res.upsert) };
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }
}

/** The embedded engine: one NeDB datafile per collection under the service's data folder. */
export class NedbStore implements Store {
  readonly engine = 'nedb' as const;
  private readonly dbs = new Map<string, Db>();
  private opened = false;
  private compactTimer?: NodeJS.Timeout;

  constructor(private readonly options: NedbStoreOptions = {}) {}

  collection<T extends BaseDoc>(def: CollectionDef<T>): Collection<T> {
    return new NedbCollection<T>(def.name, this.db(def.name));
  }

  async open(defs: readonly CollectionDef<BaseDoc>[]): Promise<void> {
    if (this.options.dir) {
      try {
        mkdirSync(this.options.dir, { recursive: true });
      } catch (err) {
        throw new StoreUnavailableError(`Cannot create data folder ${this.options.dir}: ${(err as Error).message}`);
      }
    }
    for (const def of defs) {
      const db = this.db(def.name);
      await db.loadDatabaseAsync();
      const declared = nedbIndexes(def.indexes);
      for (const index of declared) await db.ensureIndexAsync(index);
      await dropUndeclaredIndexes(db, new Set(['_id', ...declared.map((i) => nedbIndexName(i.fieldName))]));
    }
    if (this.options.dir) {
      this.compactTimer = setInterval(() => void this.compactWorthwhile(), this.options.compactEveryMs ?? 60_000);
      this.compactTimer.unref();
    }
    this.opened = true;
  }

  /** The collections whose files the last check rewrote (tests and logs). */
  async compactWorthwhile(): Promise<string[]> {
    const rewritten: string[] = [];
    for (const [name, db] of this.dbs) if (await db.compactIf(false).catch(() => false)) rewritten.push(name);
    return rewritten;
  }

  async isHealthy(): Promise<boolean> {
    return this.opened;
  }

  async close(): Promise<void> {
    if (this.compactTimer) clearInterval(this.compactTimer);
    if (this.options.dir) for (const db of this.dbs.values()) await db.compactIf(true);
    this.opened = false;
  }

  private db(name: string): Db {
    let db = this.dbs.get(name);
    if (!db) {
      db = this.options.dir
        ? new Db({ filename: join(this.options.dir, `${name}.db`) })
        : new Db({ inMemoryOnly: true });
      this.dbs.set(name, db);
    }
    return db;
  }
}
