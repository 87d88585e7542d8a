import { randomUUID } from 'node:crypto';
import { Client, Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow, types as pgTypes } from 'pg';
import { FieldShape } from '../filter-terms';
import { FieldShapes } from '../sqlite/sqlite-shapes';
import { ScopedContext } from '../scoped-context';
import { redactUrl, StoreUnavailableError } from '../store.errors';
import { BaseDoc, Collection, CollectionDef, Store } from '../store.port';
import { CountCache } from '../read-cache/count-cache';
import { DocCache } from '../read-cache/doc-cache';
import { CommitReply, PostgresCollection, PostgresEngine, Queryable } from './postgres-collection';
import { INDEX_PREFIX, pgIndex, pgTextIndex, quoteName } from './postgres-indexes';
import { fromJsonb } from './postgres-json';
import { CacheEffect, PostgresReadCaches } from './postgres-read-cache';
import { commitWith, PreparedStatements, Statement, withBegin } from './postgres-round-trips';
import { tsvectorOf } from './postgres-text';

export interface PostgresPoolSettings {
  /** Connections per process (POSTGRES_POOL_MAX); 10 by default. */
  max?: number;
  /** How long connecting may take before the operation fails (POSTGRES_CONNECT_TIMEOUT_MS); 5000 by default. */
  connectTimeoutMs?: number;
  /** An idle connection is closed after this long (POSTGRES_IDLE_TIMEOUT_MS); 30000 by default. */
  idleTimeoutMs?: number;
  /** A statement that has not answered by then fails (POSTGRES_QUERY_TIMEOUT_MS); 30000 by default. */
  queryTimeoutMs?: number;
}

export interface PostgresStoreOptions {
  url: string;
  /** The service's schema: its tables live there (`<schema>.<collection>`). */
  schema: string;
  pool?: PostgresPoolSettings;
}

const SHAPES_TABLE = '_array_fields';
/**
 * One row per process that has the schema open (`closedCleanlyBefore`): written over its listener
 * connection at open, deleted at a clean close. A row whose connection is gone is a process that died
 * (or lost the server) with the schema open.
 */
const SESSIONS_TABLE = '_open_sessions';
/** One channel for every schema: a process learns there which fields another one found holding arrays. */
const SHAPES_CHANNEL = 'squadreviews_store_shapes';
const JSONB_OID = 3802;
const HEALTH_TIMEOUT_MS = 2000;
const VERSIONS_SWEEP_MS = 60_000;

/** Documents come back through the same decoder as on SQLite (dates stored as `{"$$date": ms}`), see postgres-json.ts. */
const parsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === JSONB_OID ? (text: string) => fromJsonb(text) : pgTypes.getTypeParser(oid, format)) as typeof pgTypes.getTypeParser,
};

interface TxContext {
  client: PoolClient;
  /** Writes inside one transaction take turns: each has its own savepoint. */
  queue: Promise<unknown>;
  savepoints: number;
  /** The cached collections it wrote: their versions are bumped with its COMMIT, and what it wrote is forgotten here after it. */
  wrote: Map<string, CacheEffect[]>;
  /** The look its cached reads believe: the first one's, shared by the rest of the transaction. */
  look?: Promise<void>;
  /** Statements sent with its COMMIT (`writeWithCommit`), in order. */
  withCommit: CommitStatement[];
  /** BEGIN was sent: it goes with the first statement's turn, or with the COMMIT when none came before. */
  begun: boolean;
}

/** A statement sent with a transaction's COMMIT, and who hears its rows. */
interface CommitStatement {
  statement: Statement;
  reply?: CommitReply;
  /** Its text does not vary with its values: named (prepared) however many parameters it has. */
  fixedText: boolean;
}

/**
 * The PostgreSQL engine (docs/decisions/store.md): one schema per service, one table per
 * collection (`_id text PRIMARY KEY, doc jsonb`, plus `search tsvector` where text fields are
 * declared), an expression index per declared index, node-postgres' pool.
 *
 * `transaction(fn)` holds one pooled connection between BEGIN and COMMIT; every operation of
 * this store inside `fn` (across awaits, told apart by AsyncLocalStorage) runs on it, so the
 * outbox row commits or rolls back with its change. Each write in it has its own savepoint: a
 * refused write (a duplicate key the caller catches) does not abort the whole transaction.
 */
export class PostgresStore implements Store, PostgresEngine {
  readonly engine = 'postgres' as const;
  private pool?: Pool;
  /**
   * One connection of its own for the caches' looks at the versions: a transaction reads its read
   * models through the caches while it holds a pooled connection, and a look that queued for the
   * pool behind such transactions waited for them while they waited for it (likes at 50 at once:
   * 11 a second, the rest timing out).
   */
  private lookPool?: Pool;
  private listener?: Client;
  private closed = false;
  private readonly shapes = new FieldShapes();
  private readonly tables = new Set<string>();
  /** Per collection with unique indexes besides `_id`: the top-level fields those indexes read. */
  private readonly uniques = new Map<string, Set<string>>();
  private readonly textFields = new Map<string, readonly string[]>();
  private readonly context = new ScopedContext<TxContext>();
  /** The look a `withOneLook` scope's reads share, once its first one took it. */
  private readonly lookScopes = new ScopedContext<{ look?: Promise<void> }>();
  /** This open's row in SESSIONS_TABLE. */
  private sessionId = '';
  private cleanBefore = false;
  private readonly caches: PostgresReadCaches;
  private readonly statements = new PreparedStatements();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly options: PostgresStoreOptions) {
    this.caches = new PostgresReadCaches(options.schema, <R>(statement: QueryConfig) => this.looks().query(statement).then((r) => r.rows as R[]));
  }

  get schema(): string {
    return this.options.schema;
  }

  collection<T extends BaseDoc>(def: CollectionDef<T>): Collection<T> {
    if (def.text?.length) this.textFields.set(def.name, def.text);
    this.learnUniques(def);
    return new PostgresCollection<T>(def.name, this, def.text ?? []);
  }

  async open(defs: readonly CollectionDef<BaseDoc>[]): Promise<void> {
    this.closed = false;
    const pool = this.connectPool();
    try {
      await pool.query('SELECT 1');
    } catch (err) {
      await pool.end().catch(() => undefined);
      await this.lookPool?.end().catch(() => undefined);
      this.pool = this.lookPool = undefined;
      const waited = this.options.pool?.connectTimeoutMs ?? 5000;
      throw new StoreUnavailableError(`Cannot reach PostgreSQL at ${redactUrl(this.options.url)} (waited up to ${waited} ms): ${(err as Error).message}`);
    }
    // Every change is made only where the catalogue says the table is not in its declared shape:
    // even a no-op `ALTER TABLE ... IF EXISTS` takes the table's exclusive lock, and deadlocked with
    // the writes of the replicas already running.
    await this.ddl(async (client) => {
      if (!(await this.hasTable(client, SHAPES_TABLE))) {
        await client.query(`CREATE TABLE IF NOT EXISTS ${this.table(SHAPES_TABLE)} (collection text, field text, PRIMARY KEY (collection, field))`);
      }
      await this.sweepSessions(client);
      defs.forEach((def) => this.caches.declare(def));
      for (const sql of this.caches.ddl()) await client.query(sql);
      for (const def of defs) {
        if (def.text?.length) this.textFields.set(def.name, def.text);
        this.learnUniques(def);
        await this.createTable(client, def.name);
        const declared = def.indexes.map((index) => pgIndex(this.schema, def.name, index));
        const hasSearch = await this.hasSearchColumn(client, def.name);
        if (def.text?.length) declared.push(await this.ensureSearch(client, def.name, def.text, hasSearch));
        else if (hasSearch) await client.query(`ALTER TABLE ${this.table(def.name)} DROP COLUMN IF EXISTS search`);
        const existing = new Set(
          (
            await client.query<{ indexname: string }>(
              `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND starts_with(indexname, $3)`,
              [this.schema, def.name, INDEX_PREFIX],
            )
          ).rows.map((r) => r.indexname),
        );
        // An index's name hashes its definition: a name already there is the declared index.
        for (const index of declared) if (!existing.has(index.name)) await client.query(index.sql);
        const names = new Set(declared.map((i) => i.name));
        for (const indexname of existing) if (!names.has(indexname)) await client.query(`DROP INDEX ${quoteName(this.schema)}.${quoteName(indexname)}`);
      }
    });
    await this.listenForShapes();
    // Version rows of backends gone since (other processes' pools close idle connections) are dropped now and then.
    this.sweeper = setInterval(() => void this.pool?.query(this.caches.sweep()).catch(() => undefined), VERSIONS_SWEEP_MS).unref();
  }

  async isHealthy(): Promise<boolean> {
    const pool = this.pool;
    if (!pool || this.closed) return false;
    // A readiness probe answers within its own timeout even when the server is cut off.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS)));
    try {
      return await Promise.race([pool.query('SELECT 1').then(() => true), late]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * True when no other process had this schema open when this one opened it: every one before closed
   * it cleanly (as SQLite's write-ahead log, a live replica counts as not closed). Read at open.
   */
  closedCleanlyBefore(): boolean {
    return this.cleanBefore;
  }

  async close(): Promise<void> {
    // Unmarked only when this process can still say so; otherwise the next open repairs.
    if (this.pool && !this.closed && this.sessionId) {
      await this.pool.query(`DELETE FROM ${this.table(SESSIONS_TABLE)} WHERE id = $1`, [this.sessionId]).catch(() => undefined);
    }
    this.closed = true;
    clearInterval(this.sweeper);
    const { pool, lookPool, listener } = this;
    this.pool = this.listener = this.lookPool = undefined;
    this.tables.clear();
    this.caches.clear();
    await listener?.end().catch(() => undefined);
    await lookPool?.end().catch(() => undefined);
    await pool?.end();
  }

  /** Runs `fn` in one PostgreSQL transaction; one nested in another joins it. */
  async transaction<R>(fn: () => Promise<R>): Promise<R> {
    if (this.context.get()) return fn();
    return this.inTransaction(fn).catch(this.unavailable);
  }

  private async inTransaction<R>(fn: () => Promise<R>): Promise<R> {
    const { client, done } = await this.checkout();
    const tx: TxContext = { client, queue: Promise.resolve(), savepoints: 0, wrote: new Map(), withCommit: [], begun: false };
    let broken: Error | undefined;
    let committed = false;
    try {
      try {
        const result = await this.context.run(tx, fn);
        // A transaction that left all its writes to the commit is one round trip: BEGIN goes with it.
        const begin = !tx.begun;
        tx.begun = true;
        const replies = await this.commit(client, tx.wrote.keys(), tx.withCommit, begin);
        committed = true;
        tx.withCommit.forEach((entry, i) => entry.reply?.rows(replies[i].rows));
        return result;
      } catch (err) {
        if (tx.begun) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        for (const entry of tx.withCommit) entry.reply?.failed(err);
        throw err;
      }
    } finally {
      // A COMMIT that failed may still have committed: what it wrote is forgotten whole.
      tx.wrote.forEach((effects, name) => (committed ? this.caches.committed(name, effects) : this.caches.forget(name)));
      done(broken);
    }
  }

  /**
   * COMMIT, with the statements before it (`writeWithCommit`'s, and BEGIN when nothing was sent yet)
   * and the bump of the written cached collections' versions in the same round trip, which stops
   * at the first error (the transaction then rolls back).
   */
  private async commit(client: PoolClient, wrote: Iterable<string>, withCommit: readonly CommitStatement[], begin: boolean): Promise<QueryResult[]> {
    const bump = this.caches.bumpStatement(wrote);
    const statements = withCommit.map(({ statement, fixedText }) => this.statements.named(statement, fixedText));
    return commitWith(client, bump ? [...statements, this.statements.named(bump)] : statements, begin);
  }

  /**
   * A statement for the open transaction's COMMIT (see `writeWithCommit`); what it changes in the
   * cache applies once committed. `reply` hears its rows once committed, or that it was not.
   */
  withCommit(collection: string, statement: Statement, effect: CacheEffect, reply?: CommitReply): void {
    const tx = this.context.get();
    if (!tx) throw new Error(`No transaction is open for a write with its commit to ${collection}`);
    tx.withCommit.push({ statement, reply, fixedText: reply !== undefined });
    if (this.caches.versioned(collection)) this.wrote(tx, collection).push(effect);
  }

  /** The collection's document cache, when it was declared with one at open. */
  docCache<T extends BaseDoc>(collection: string): DocCache<T> | undefined {
    return this.caches.docCache<T>(collection);
  }

  countCache(collection: string): CountCache | undefined {
    return this.caches.countCache(collection);
  }

  /**
   * Whether a read of `collection` may use and fill its cache: outside a transaction, or inside one
   * that has not written it (what it reads there is what is committed, as outside; an event
   * handler's lookups of its read models are such reads). Once it has, its reads may see its own
   * writes, which may still roll back.
   */
  cachesUsable(collection: string): boolean {
    const tx = this.context.get();
    return tx === undefined || !tx.wrote.has(collection);
  }

  /**
   * Before a read believes what a cache holds: this turn's look at the versions has emptied what
   * other processes' commits made stale. A read that finds nothing there needs no look: it asks the
   * server, and the next look empties what it keeps if a commit it did not see moved a version.
   */
  fresh(): Promise<void> {
    // What a transaction (or a `withOneLook` scope) handles arrived before it began, as a turn's
    // requests did before the turn: one look serves it whole, not one per turn its reads span.
    // A transaction inside a scope shares the scope's look, unless it took one of its own first.
    const tx = this.context.get();
    const scope = this.lookScopes.get();
    const holder = tx && (tx.look || !scope) ? tx : scope;
    if (!holder) return this.caches.fresh().catch(this.unavailable);
    // A failed one is not kept.
    const look = (holder.look ??= this.caches.fresh());
    return look.catch((err: unknown) => {
      if (holder.look === look) holder.look = undefined;
      return this.unavailable(err);
    });
  }

  withOneLook<R>(fn: () => Promise<R>): Promise<R> {
    return this.lookScopes.run({}, fn);
  }

  epoch(collection: string): number {
    return this.caches.epoch(collection);
  }

  mayFill(collection: string, epoch: number): boolean {
    return this.caches.mayFill(collection, epoch);
  }

  /** A write of `collection` returned: what it changed in the cache is applied at once, or once its transaction commits. */
  afterWrite(collection: string, effect: CacheEffect): void {
    if (!this.caches.versioned(collection)) return;
    const tx = this.context.get();
    if (tx) this.wrote(tx, collection).push(effect);
    else this.caches.committed(collection, [effect]);
  }

  private wrote(tx: TxContext, collection: string): CacheEffect[] {
    let effects = tx.wrote.get(collection);
    if (!effects) tx.wrote.set(collection, (effects = []));
    return effects;
  }

  /**
   * A statement on the transaction's connection inside `transaction` (taking its turn: one
   * connection runs one statement at a time), on the pool otherwise.
   */
  query<R extends QueryResultRow>(sql: string, params: unknown[] = [], rowMode?: 'array'): Promise<R[]> {
    const statement = { text: sql, values: params, ...(rowMode && { rowMode }) };
    const tx = this.context.get();
    // A transaction's turn names its statements itself.
    const rows = tx ? this.inTurn(tx, (on) => on.query<R>(statement)) : this.db().query<R>(this.statements.named(statement));
    return rows.then((r) => r.rows, this.unavailable);
  }

  /**
   * Runs `work` so that it commits or rolls back as one: its own transaction, or a savepoint of
   * the surrounding one (the writes of one transaction take turns on its connection).
   */
  atomic<R>(collection: string, work: (on: Queryable) => Promise<R>): Promise<R> {
    return this.atomicWork(collection, work).catch(this.unavailable);
  }

  private async atomicWork<R>(collection: string, work: (on: Queryable) => Promise<R>): Promise<R> {
    const tx = this.context.get();
    if (!tx) {
      const { client, done } = await this.checkout();
      let broken: Error | undefined;
      const started = { begun: false };
      try {
        try {
          const result = await work(this.statements.naming(withBegin(client, started)));
          await this.commit(client, [collection], [], !started.begun);
          return result;
        } catch (err) {
          if (started.begun) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw err;
        }
      } finally {
        done(broken);
      }
    }
    if (this.caches.versioned(collection)) this.wrote(tx, collection);
    return this.inTurn(tx, async (on) => {
      const savepoint = `sp_${++tx.savepoints}`;
      await on.query({ text: `SAVEPOINT ${savepoint}` });
      try {
        const result = await work(on);
        await on.query({ text: `RELEASE SAVEPOINT ${savepoint}` });
        return result;
      } catch (err) {
        await on.query({ text: `ROLLBACK TO SAVEPOINT ${savepoint}` });
        throw err;
      }
    });
  }

  /**
   * One statement. Inside a transaction a `guarded` one gets a savepoint, so a refusal (a duplicate
   * key the caller catches, a table not created yet) leaves the transaction usable; an unguarded
   * one (it cannot be refused: see `mayRefuse`) saves the two round trips. Either takes its turn,
   * so it never lands inside another write's savepoint.
   */
  write<R extends QueryResultRow>(collection: string, sql: string, params: unknown[], guarded = true): Promise<R[]> {
    const tx = this.context.get();
    if (!tx) return this.writeAlone<R>(collection, sql, params);
    if (guarded) return this.atomic(collection, (on) => on.query<R>({ text: sql, values: params }).then((r) => r.rows));
    if (this.caches.versioned(collection)) this.wrote(tx, collection);
    return this.inTurn(tx, (on) => on.query<R>({ text: sql, values: params }).then((r) => r.rows)).catch(this.unavailable);
  }

  /** A write outside any transaction: a cached collection's version is bumped by the same statement (a data-modifying WITH). */
  private async writeAlone<R extends QueryResultRow>(collection: string, sql: string, params: unknown[]): Promise<R[]> {
    const bump = this.caches.bump([collection]);
    if (!bump) return this.query<R>(sql, params);
    return this.query<R>(`WITH _bump AS (${bump}) ${sql}`, params).catch((err: unknown) => {
      // It may have committed before it failed: the collection is forgotten whole.
      this.caches.forget(collection);
      throw err;
    });
  }

  /**
   * Whether a write to `collection` may be refused in a way its caller catches: its table is not
   * known to exist yet (the write creates it and retries), or, for an update, a unique index besides
   * `_id` may refuse it: unless `touched` (the top-level fields the update writes) leaves every field
   * of those indexes alone, as a conversation's new last message does. Inserts are sent as ON
   * CONFLICT DO NOTHING (an empty answer is the refusal) and deletes are never refused.
   */
  transactionOpen(): boolean {
    return this.context.get() !== undefined;
  }

  mayRefuse(collection: string, kind: 'update' | 'other', touched?: readonly string[]): boolean {
    if (!this.tables.has(collection)) return true;
    const unique = this.uniques.get(collection);
    if (kind !== 'update' || !unique) return false;
    return !touched || touched.some((field) => unique.has(field));
  }

  private learnUniques(def: CollectionDef<BaseDoc>): void {
    const fields = def.indexes.filter((i) => i.unique).flatMap((i) => Object.keys({ ...i.fields, ...i.orderBy }).map((f) => f.split('.')[0]));
    if (fields.length > 0) this.uniques.set(def.name, new Set(fields));
  }

  /** The writes of one transaction take turns on its connection; the first statement sent carries the BEGIN. */
  private inTurn<R>(tx: TxContext, work: (on: Queryable) => Promise<R>): Promise<R> {
    const turn = tx.queue.then(() => work(this.statements.naming(tx.begun ? tx.client : withBegin(tx.client, tx))));
    tx.queue = turn.catch(() => undefined);
    return turn;
  }

  table(collection: string): string {
    return `${quoteName(this.schema)}.${quoteName(collection)}`;
  }

  shapeOf(collection: string, field: string): FieldShape {
    return this.shapes.shapeOf(collection, field);
  }

  /**
   * Records the array fields of a document about to be written, committed before the write (so no
   * process can see the document before the field is known to hold arrays) and announced to the
   * other processes on the shapes channel.
   */
  async learnShapes(collection: string, doc: object): Promise<void> {
    const fresh = this.shapes.learn(collection, doc);
    if (fresh.length === 0) return;
    await this.db()
      .query(
        `WITH added AS (INSERT INTO ${this.table(SHAPES_TABLE)} (collection, field) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING field)
         SELECT pg_notify($3, $4 || string_agg(field, E'\\n')) FROM added HAVING count(*) > 0`,
        [collection, fresh, SHAPES_CHANNEL, `${this.schema}\n${collection}\n`],
      )
      .catch((err: unknown) => {
        this.shapes.forget(collection, fresh);
        return this.unavailable(err);
      });
  }

  searchOf(collection: string, doc: Record<string, unknown>): string | null {
    const fields = this.textFields.get(collection);
    return fields ? tsvectorOf(doc, fields) : null;
  }

  /** A collection no declaration created gets its table on first use. */
  async ensureTable(collection: string): Promise<void> {
    if (this.tables.has(collection)) return;
    await this.ddl((client) => this.createTable(client, collection)).catch(this.unavailable);
  }

  private connectPool(): Pool {
    const pool = this.newPool(this.options.pool?.max ?? 10);
    this.lookPool = this.newPool(1);
    // The cache's version rows of these backends move with this process's own commits.
    pool.on('connect', (client) => this.caches.backend((client as unknown as { processID: number | null }).processID));
    pool.on('remove', (client) => this.caches.backend((client as unknown as { processID: number | null }).processID, true));
    this.pool = pool;
    return pool;
  }

  private newPool(max: number): Pool {
    const settings = this.options.pool ?? {};
    const pool = new Pool({
      connectionString: this.options.url,
      max,
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: settings.idleTimeoutMs ?? 30_000,
      query_timeout: settings.queryTimeoutMs ?? 30_000,
      keepAlive: true,
      types: parsers,
    });
    // A pooled connection the server drops (a restart) is discarded; the next query opens a new one.
    pool.on('error', () => undefined);
    return pool;
  }

  private looks(): Pool {
    if (!this.lookPool || this.closed) throw new StoreUnavailableError('The PostgreSQL store is not open');
    return this.lookPool;
  }

  /**
   * A statement that failed because the server is gone (down, restarting, cut off) is a
   * StoreUnavailableError, which the platform answers with 503; any other failure is left as it is.
   */
  private readonly unavailable = (err: unknown): never => {
    if (!(err instanceof StoreUnavailableError) && isConnectionFailure(err)) {
      throw new StoreUnavailableError(`PostgreSQL at ${redactUrl(this.options.url)} is unavailable: ${(err as Error).message}`);
    }
    throw err;
  };

  /**
   * A pooled connection for one unit of work. pg emits a connection's failure (the server shutting
   * down while the unit awaits the caller's code) as an 'error' event, which only an idle pooled
   * connection has a listener for: without this one, that event ends the process. The failure is
   * kept and the connection discarded when the unit releases it.
   */
  private async checkout(): Promise<{ client: PoolClient; done: (broken?: Error) => void }> {
    const client = await this.db().connect();
    let failed: Error | undefined;
    const onError = (err: Error) => (failed = err);
    client.on('error', onError);
    return {
      client,
      done: (broken) => {
        client.off('error', onError);
        client.release(broken ?? failed);
      },
    };
  }

  private db(): Pool {
    if (!this.pool || this.closed) throw new StoreUnavailableError('The PostgreSQL store is not open');
    return this.pool;
  }

  /** Schema changes of several processes booting at once take turns under an advisory lock. */
  private async ddl(work: (client: PoolClient) => Promise<void>): Promise<void> {
    const { client, done } = await this.checkout();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`squadreviews_store:${this.schema}`]);
        const { rows } = await client.query<{ found: boolean }>(`SELECT to_regnamespace($1) IS NOT NULL AS found`, [quoteName(this.schema)]);
        if (!rows[0].found) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteName(this.schema)}`);
        await work(client);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        this.tables.clear();
        throw err;
      }
    } finally {
      done(broken);
    }
  }

  /**
   * Under the schema's DDL lock at open: whether any process's row is left (closedCleanlyBefore),
   * then the rows of processes whose connection is gone are dropped (their damage is repaired by
   * this boot; a row of a live replica stays).
   */
  private async sweepSessions(client: PoolClient): Promise<void> {
    const sessions = this.table(SESSIONS_TABLE);
    if (!(await this.hasTable(client, SESSIONS_TABLE))) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${sessions} (id text PRIMARY KEY, pid integer NOT NULL, backend_start timestamptz NOT NULL)`);
    }
    const { rows } = await client.query<{ left: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${sessions}) AS left`);
    this.cleanBefore = !rows[0].left;
    await client.query(
      `DELETE FROM ${sessions} s WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.pid AND a.backend_start = s.backend_start)`,
    );
    this.sessionId = randomUUID();
  }

  private async createTable(client: PoolClient, collection: string): Promise<void> {
    if (!(await this.hasTable(client, collection))) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.table(collection)} (_id text PRIMARY KEY, doc jsonb NOT NULL)`);
    }
    this.tables.add(collection);
  }

  private async hasTable(client: PoolClient, collection: string): Promise<boolean> {
    const { rows } = await client.query<{ found: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS found`, [this.table(collection)]);
    return rows[0].found;
  }

  private async hasSearchColumn(client: PoolClient, collection: string): Promise<boolean> {
    const { rows } = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = 'search'`,
      [this.schema, collection],
    );
    return rows.length > 0;
  }

  /**
   * The `search` column and its GIN index. The column's comment names the fields it was filled
   * from: a new column, or one filled from other fields, is (re)filled from every document.
   */
  private async ensureSearch(client: PoolClient, collection: string, fields: readonly string[], hasColumn: boolean) {
    const table = this.table(collection);
    if (!hasColumn) await client.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS search tsvector`);
    const signature = `text fields: ${fields.join(', ')}`;
    const [{ comment }] = (
      await client.query<{ comment: string | null }>(
        `SELECT col_description(c.oid, a.attnum) AS comment FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
         WHERE c.oid = $1::regclass AND a.attname = 'search'`,
        [table],
      )
    ).rows;
    if (comment !== signature) {
      let after = '';
      for (;;) {
        const { rows } = await client.query<{ _id: string; doc: Record<string, unknown> }>(
          `SELECT _id, doc FROM ${table} WHERE _id > $1 ORDER BY _id LIMIT 500`,
          [after],
        );
        if (rows.length === 0) break;
        await client.query(`UPDATE ${table} AS t SET search = v.search FROM unnest($1::text[], $2::tsvector[]) AS v(id, search) WHERE t._id = v.id`, [
          rows.map((r) => r._id),
          rows.map((r) => tsvectorOf(r.doc, fields)),
        ]);
        after = rows[rows.length - 1]._id;
      }
      await client.query(`COMMENT ON COLUMN ${table}.search IS ${quoteLiteral(signature)}`);
    }
    return pgTextIndex(this.schema, collection);
  }

  /**
   * Follows other processes' findings on the shapes channel, then loads the known array fields
   * (both on every (re)connection, so nothing announced while it was down is missed). A dropped or
   * refused connection is tried again every second until the store closes.
   */
  private async listenForShapes(): Promise<void> {
    if (this.closed) return;
    const listener = new Client({ connectionString: this.options.url, connectionTimeoutMillis: this.options.pool?.connectTimeoutMs ?? 5000, keepAlive: true });
    this.listener = listener;
    let retried = false;
    const retry = () => {
      if (retried || this.listener !== listener || this.closed) return;
      retried = true;
      this.listener = undefined;
      listener.end().catch(() => undefined);
      setTimeout(() => void this.listenForShapes().catch(() => undefined), 1000).unref();
    };
    listener.on('error', retry);
    listener.on('end', retry);
    listener.on('notification', (msg) => {
      const [schema, collection, ...fields] = (msg.payload ?? '').split('\n');
      if (schema !== this.schema) return;
      for (const field of fields) this.shapes.learn(collection, arrayDoc(field));
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${SHAPES_CHANNEL}`);
      // This process's mark, on the connection whose life stands for the process's (again after a reconnection).
      await listener.query(
        `INSERT INTO ${this.table(SESSIONS_TABLE)} (id, pid, backend_start) SELECT $1, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()
         ON CONFLICT (id) DO UPDATE SET pid = EXCLUDED.pid, backend_start = EXCLUDED.backend_start`,
        [this.sessionId],
      );
      const { rows } = await listener.query<{ collection: string; field: string }>(`SELECT collection, field FROM ${this.table(SHAPES_TABLE)}`);
      this.shapes.reset(rows);
    } catch (err) {
      retry();
      throw err;
    }
  }
}

/** Lost connections (node's socket codes, pg's own messages) and SQLSTATE classes 08 and 57P01-57P03. */
export function isConnectionFailure(err: unknown): boolean {
  // Not `instanceof Error`: node's socket errors may come from another realm (a test's VM context).
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed/i.test(message);
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03']);

const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A document whose only array is at the dotted `field`: what FieldShapes learns a field from. */
function arrayDoc(field: string): object {
  return field
    .split('.')
    .reverse()
    .reduce<unknown>((inner, segment) => ({ [segment]: inner }), []) as object;
}
