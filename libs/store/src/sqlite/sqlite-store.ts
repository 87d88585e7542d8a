import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { Database, Statement } from 'better-sqlite3';
import { ScopedContext } from '../scoped-context';
import { StoreUnavailableError } from '../store.errors';
import { BaseDoc, Collection, CollectionDef, Store } from '../store.port';
import { SqliteCollection, SqliteEngine } from './sqlite-collection';
import { FieldShape } from '../filter-terms';
import { CountCache } from '../read-cache/count-cache';
import { DocCache, uniqueKeysOf } from '../read-cache/doc-cache';
import { INDEX_PREFIX, quoteName, sqliteIndex } from './sqlite-indexes';
import { FieldShapes } from './sqlite-shapes';
import { ensureTextIndex, registerFold, textTableOf } from './sqlite-text';

export interface SqliteStoreOptions {
  /** The database file; absent or ':memory:' keeps everything in memory (tests). */
  file?: string;
  /** How long a write waits for another process holding the file's write lock; 5000 ms by default. */
  busyTimeoutMs?: number;
}

type Row = Record<string, unknown>;

/** The file of a service's data under the data root: `<dataDir>/<service>/<service>.sqlite`. */
export const sqliteFileOf = (serviceDir: string, service: string): string => `${serviceDir}/${service}.sqlite`;

const SHAPES_TABLE = '_array_fields';

/** Marks the operations of one async transaction (see `transaction`). */
interface TxToken {
  done: Promise<void>;
  /** The collections this transaction wrote to so far. */
  wrote: Set<string>;
}

/**
 * One SQLite transaction shared by the async transactions that end in one event-loop turn (group
 * commit): each runs in a savepoint of it, and all of them are told they committed when it does.
 */
interface CommitGroup {
  /** Settles when the group commits: rejected when its commit (or a failure that ended it) does not. */
  committed: Promise<void>;
  settle: (err?: unknown) => void;
  /**
   * What `this.tx` holds between two of its transactions: writes from other contexts wait for the
   * commit; its `wrote` holds what its finished transactions wrote (not committed yet, so no read
   * fills their caches).
   */
  between: TxToken;
  size: number;
  /** Its transactions that did not fail: none, and there is nothing to commit. */
  kept: number;
  /** A commit is due at the end of this event-loop turn. */
  due: boolean;
  /** Rows its transactions changed: a bulk write commits at once (see MAX_GROUP_CHANGES). */
  changes: number;
}

/** Most transactions one commit takes: each waits for the last of its group before it is told. */
const MAX_GROUP = 64;
/**
 * A group that changed more rows than this commits at once: grouping pays for small transactions
 * (a like changes six rows); a bulk import's kept open only held its pages longer (peak RSS +15 %).
 */
const MAX_GROUP_CHANGES = 500;

/**
 * The embedded engine (ARCHITECTURE §3): one SQLite database per service, one table per
 * collection (`_id TEXT PRIMARY KEY, doc TEXT` holding JSON), an expression index per declared
 * index. WAL, synchronous=NORMAL: a committed write survives the process being killed; a power
 * cut may lose the last commits (docs/decisions/store.md).
 *
 * better-sqlite3 is synchronous, so each operation is atomic in this process by construction.
 * `transaction(fn)` spans awaits: its operations are told apart by an AsyncLocalStorage token;
 * writes from any other context wait until it commits, reads from other contexts go through a
 * second, read-only connection that sees only committed data (in memory, where there is no
 * second connection, they wait too).
 */
export class SqliteStore implements Store, SqliteEngine {
  readonly engine = 'sqlite' as const;
  private writer?: Database;
  private reader?: Database;
  private readonly statements = new Map<Database, Map<string, Statement>>();
  private readonly tables = new Set<string>();
  private readonly shapes = new FieldShapes();
  private readonly docCaches = new Map<string, DocCache<BaseDoc>>();
  private readonly countCaches = new Map<string, CountCache>();
  private seenDataVersion = -1;
  /**
   * data_version was read in this turn of the event loop. Once a turn is enough: the requests a
   * turn handles arrived before it began, so whatever another process committed before they were
   * sent (a write whose reply their client saw) is seen by the turn's first look.
   */
  private lookedThisTurn = false;
  /** One transaction wrapper per connection: better-sqlite3 builds four functions per `db.transaction()`. */
  private readonly wrappers = new WeakMap<Database, ReturnType<Database['transaction']>>();
  private readonly context = new ScopedContext<TxToken>();
  /** See `closedCleanlyBefore`; set when the file is opened. */
  private cleanBefore = false;
  private tx?: TxToken;
  /** Tail of the queue of async transactions. */
  private txQueue: Promise<void> = Promise.resolve();
  private group?: CommitGroup;

  constructor(private readonly options: SqliteStoreOptions = {}) {}

  get file(): string | undefined {
    return this.options.file && this.options.file !== ':memory:' ? this.options.file : undefined;
  }

  collection<T extends BaseDoc>(def: CollectionDef<T>): Collection<T> {
    this.declareCache(def);
    return new SqliteCollection<T>(def.name, this, def.text?.length ? textTableOf(def.name, def.text) : undefined);
  }

  /** A declaration that asks for a document cache gets one, shared by every handle on the collection. */
  private declareCache<T extends BaseDoc>(def: CollectionDef<T>): void {
    if (def.cacheById && !this.docCaches.has(def.name)) this.docCaches.set(def.name, new DocCache<BaseDoc>(def.cacheById, uniqueKeysOf(def)));
    if (def.cacheCounts && !this.countCaches.has(def.name)) this.countCaches.set(def.name, new CountCache(def.cacheCounts));
  }

  /** The collection's count cache, when a declaration of it asked for one. */
  countCache(collection: string): CountCache | undefined {
    return this.countCaches.get(collection);
  }

  /** The collection's document cache, when a declaration of it asked for one: every handle on it reads and forgets through it. */
  docCache<T extends BaseDoc>(collection: string): DocCache<T> | undefined {
    return this.docCaches.get(collection) as DocCache<T> | undefined;
  }

  async open(defs: readonly CollectionDef<BaseDoc>[]): Promise<void> {
    this.connect();
    const db = this.db();
    db.transaction(() => {
      for (const def of defs) {
        this.declareCache(def);
        this.ensureTable(def.name);
        const declared = def.indexes.map((index) => sqliteIndex(def.name, index));
        for (const index of declared) db.exec(index.sql);
        const names = new Set(declared.map((i) => i.name));
        const existing = db
          .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ${INDEX_PREFIX.length}) = ?`)
          .pluck()
          .all(def.name, INDEX_PREFIX) as string[];
        for (const name of existing) if (!names.has(name)) db.exec(`DROP INDEX ${quoteName(name)}`);
        if (def.text?.length) ensureTextIndex(db, def.name, def.text);
      }
    }).immediate();
  }

  async isHealthy(): Promise<boolean> {
    return this.writer?.open ?? false;
  }

  async close(): Promise<void> {
    await this.txQueue;
    if (this.group) this.commitGroup(this.group);
    this.tx = undefined;
    this.reader?.close();
    this.writer?.close();
    this.reader = this.writer = undefined;
    this.statements.clear();
    this.tables.clear();
    for (const cache of [...this.docCaches.values(), ...this.countCaches.values()]) cache.clear();
  }

  /**
   * Runs `fn` in one SQLite transaction: every store operation inside it (across awaits) commits
   * or rolls back together. Transactions run one at a time; one nested in another joins it.
   */
  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    if (this.inOwnTransaction()) return fn();
    let finish!: () => void;
    const token: TxToken = { done: new Promise<void>((resolve) => (finish = resolve)), wrote: new Set() };
    const previous = this.txQueue;
    this.txQueue = token.done;
    await previous;
    let group: CommitGroup | undefined;
    let result: R;
    try {
      const db = this.db();
      group = this.group ?? this.openGroup(db);
      group.between.wrote.forEach((name) => token.wrote.add(name));
      this.tx = token;
      result = await this.inSavepoint(db, token, fn);
      group.kept++;
      token.wrote.forEach((name) => group!.between.wrote.add(name));
    } finally {
      this.endUnit(group, finish);
    }
    await group.committed;
    return result;
  }

  /**
   * Group commit: each commit writes its pages to the WAL, and under load many transactions end in
   * one turn. The first opens the SQLite transaction and the next ones join it (each in a savepoint:
   * one that fails rolls back alone); it commits at the end of the turn, or at once when full, and
   * none is told it committed before that.
   */
  private openGroup(db: Database): CommitGroup {
    db.exec('BEGIN IMMEDIATE');
    let settle!: (err?: unknown) => void;
    const committed = new Promise<void>((resolve, reject) => (settle = (err) => (err === undefined ? resolve() : reject(err))));
    // Also keeps a group whose every transaction failed (no one to tell) from an unhandled rejection.
    const settled = committed.catch(() => undefined);
    const group: CommitGroup = { committed, settle, between: { done: settled, wrote: new Set() }, size: 0, kept: 0, due: false, changes: 0 };
    this.group = group;
    return group;
  }

  private async inSavepoint<R>(db: Database, token: TxToken, fn: () => Promise<R>): Promise<R> {
    db.exec('SAVEPOINT unit');
    try {
      const result = await this.context.run(token, fn);
      db.exec('RELEASE unit');
      return result;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK TO unit; RELEASE unit');
      this.tables.clear(); // a table created inside is gone again
      throw err;
    }
  }

  /**
   * After each transaction: the group stays open for the transactions that begin in this
   * event-loop turn (queued, or started by requests read in the same turn), and commits at its end
   * (at once when full, or after SQLite rolled it back).
   */
  private endUnit(group: CommitGroup | undefined, finish: () => void): void {
    if (group) {
      group.size++;
      const ended = !this.writer?.inTransaction; // an error SQLite answers with a rollback of everything
      if (ended) this.settleGroup(group, new Error('The transaction was rolled back by SQLite'));
      else if (group.size < MAX_GROUP && group.changes < MAX_GROUP_CHANGES) this.commitAtTurnEnd(group);
      else this.commitGroup(group);
    }
    this.tx = this.group === group && group ? group.between : undefined;
    finish();
  }

  private commitAtTurnEnd(group: CommitGroup): void {
    if (group.due) return;
    group.due = true;
    setImmediate(() => {
      group.due = false;
      // A transaction of the group still running commits it when it ends.
      if (this.group === group && this.tx === group.between) {
        this.commitGroup(group);
        this.tx = undefined;
      }
    });
  }

  private commitGroup(group: CommitGroup): void {
    try {
      this.db().exec(group.kept > 0 ? 'COMMIT' : 'ROLLBACK');
      this.settleGroup(group);
    } catch (err) {
      if (this.writer?.inTransaction) this.writer.exec('ROLLBACK');
      this.tables.clear();
      this.settleGroup(group, err);
    }
  }

  private settleGroup(group: CommitGroup, err?: unknown): void {
    if (this.group === group) this.group = undefined;
    group.settle(err);
  }

  // `read` and `write` run `work` in the same tick as their last look at `this.tx`: an await in
  // between would let a transaction begin on the connection the work then runs on.

  async read<R>(collection: string, work: (db: Database) => R): Promise<R> {
    // Between two transactions of an open group, what it has not written reads as committed on
    // the writer, whose page cache the group's commits do not empty (the reader's they do).
    if (this.tx && this.tx === this.group?.between && !this.tx.wrote.has(collection)) return work(this.db());
    if (this.tx && !this.inOwnTransaction() && this.reader) return work(this.reader);
    while (this.tx && !this.inOwnTransaction()) await this.tx.done;
    return work(this.db());
  }

  async write<R>(work: (db: Database) => R): Promise<R> {
    if (this.inOwnTransaction()) return this.wrapperOf(this.db())(work) as R; // a savepoint
    while (this.tx) await this.tx.done;
    return this.wrapperOf(this.db()).immediate(work) as R;
  }

  private wrapperOf(db: Database): ReturnType<Database['transaction']> {
    let wrapper = this.wrappers.get(db);
    if (!wrapper) this.wrappers.set(db, (wrapper = db.transaction((work: (db: Database) => unknown) => work(db))));
    return wrapper;
  }

  all(db: Database, sql: string, params: unknown[]): Row[] {
    return this.statement(db, sql).all(...params) as Row[];
  }

  rows(db: Database, sql: string, params: unknown[]): unknown[][] {
    return this.statement(db, sql, true).all(...params) as unknown[][];
  }

  run(db: Database, sql: string, params: unknown[]): number {
    const { changes } = this.statement(db, sql).run(...params);
    if (this.group) this.group.changes += changes;
    return changes;
  }

  shapeOf(collection: string, field: string): FieldShape {
    this.noteOtherWriters();
    return this.shapes.shapeOf(collection, field);
  }

  learnShapes(db: Database, collection: string, doc: object): void {
    for (const field of this.shapes.learn(collection, doc)) {
      this.run(db, `INSERT OR IGNORE INTO ${SHAPES_TABLE} (collection, field) VALUES (?, ?)`, [collection, field]);
    }
  }

  hasTable(collection: string): boolean {
    return this.tables.has(collection);
  }

  ensureTable(collection: string): void {
    if (this.tables.has(collection)) return;
    this.db().exec(`CREATE TABLE IF NOT EXISTS ${quoteName(collection)} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    this.tables.add(collection);
  }

  /**
   * True when every connection that used the file before this one closed it: SQLite's last
   * connection checkpoints and deletes the write-ahead log on close, so a log left at open means a
   * process died with the file open (or one has it open now). Always false in memory.
   */
  closedCleanlyBefore(): boolean {
    return this.cleanBefore;
  }

  private connect(): void {
    if (this.writer?.open) return;
    const file = this.file;
    try {
      if (file) mkdirSync(dirname(file), { recursive: true });
      this.cleanBefore = file !== undefined && !(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size);
      this.writer = new BetterSqlite3(file ?? ':memory:');
      this.configure(this.writer);
      this.writer.pragma('journal_mode = WAL');
      this.writer.exec(`CREATE TABLE IF NOT EXISTS ${SHAPES_TABLE} (collection TEXT, field TEXT, PRIMARY KEY (collection, field)) WITHOUT ROWID`);
      if (file) {
        this.reader = new BetterSqlite3(file, { readonly: true });
        this.configure(this.reader);
      }
    } catch (err) {
      throw new StoreUnavailableError(`Cannot open the SQLite database ${file ?? ':memory:'}: ${(err as Error).message}`);
    }
    this.seenDataVersion = -1;
    this.lookedThisTurn = false;
    this.noteOtherWriters();
  }

  private configure(db: Database): void {
    db.pragma(`busy_timeout = ${this.options.busyTimeoutMs ?? 5000}`);
    db.pragma('synchronous = NORMAL');
    registerFold(db);
  }

  private db(): Database {
    if (!this.writer?.open) throw new StoreUnavailableError('The SQLite store is not open');
    return this.writer;
  }

  private inOwnTransaction(): boolean {
    const token = this.context.get();
    return token !== undefined && token === this.tx;
  }

  /**
   * Another process sharing the file may have written since the last look (data_version says so
   * on the writer connection, which only counts other connections' commits): it may have found
   * new array fields, and any cached document may be stale. Looked at once per event-loop turn.
   */
  noteOtherWriters(): void {
    if (this.lookedThisTurn) return;
    this.lookedThisTurn = true;
    setImmediate(() => (this.lookedThisTurn = false));
    const db = this.db();
    const version = this.statement(db, 'PRAGMA data_version').pluck().get() as number;
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    this.shapes.reset(this.all(db, `SELECT collection, field FROM ${SHAPES_TABLE}`, []) as { collection: string; field: string }[]);
    for (const cache of [...this.docCaches.values(), ...this.countCaches.values()]) cache.clear();
  }

  /**
   * Whether a read of `collection` may fill its document cache: when no transaction is open, or
   * inside one's own that has not written to that collection (what it reads there is committed;
   * a later write of it forgets what it touches), or between two transactions of an open group
   * that has not written it. Never beside another context's running transaction, which may have
   * written what the read found older.
   */
  mayFillCaches(collection: string): boolean {
    if (this.tx === undefined) return true;
    // Between two transactions of an open group, its `wrote` is what the group has not committed.
    return (this.inOwnTransaction() || this.tx === this.group?.between) && !this.tx.wrote.has(collection);
  }

  /** Before a write of `collection`: its counts go, and inside a transaction its reads fill no cache until the transaction ends. */
  noteWrite(collection: string): void {
    this.countCaches.get(collection)?.clear();
    if (this.inOwnTransaction()) this.tx!.wrote.add(collection);
  }

  private statement(db: Database, sql: string, raw = false): Statement {
    let cache = this.statements.get(db);
    if (!cache) this.statements.set(db, (cache = new Map()));
    // A raw statement (rows as arrays) is its own entry: the mode belongs to the prepared statement.
    const key = raw ? `raw:${sql}` : sql;
    let stmt = cache.get(key);
    if (!stmt) {
      // Filters vary in shape only (lists are one JSON parameter): the cache stays small, but bound it anyway.
      if (cache.size >= 1000) cache.clear();
      stmt = db.prepare(sql);
      if (raw) stmt.raw(true);
      cache.set(key, stmt);
    }
    return stmt;
  }
}
