import type { QueryConfig } from 'pg';
import { BaseDoc, CollectionDef } from '../store.port';
import { CountCache } from '../read-cache/count-cache';
import { DocCache, uniqueKeysOf } from '../read-cache/doc-cache';
import { quoteName } from './postgres-indexes';

/** What a committed write of this process changes in its collection's document cache. */
export type CacheEffect = (cache: DocCache<BaseDoc>) => void;

interface VersionRow {
  collection: string;
  pid: number;
  v: string;
}

/**
 * The document and count caches of the PostgreSQL store (collections declared with `cacheById` or
 * `cacheCounts`; docs/decisions/store.md), kept coherent across every process that shares the
 * schema, replicas included, the way SQLite's `data_version` keeps the embedded one's.
 *
 * A write of a cached collection bumps a version row in the same transaction: one row per
 * collection and server backend (`pg_backend_pid()`), so no two connections contend for a row, and
 * a process knows the rows its own connections write. A read a cache could answer first looks at
 * the rows, once per turn of the event loop: the requests a turn handles arrived before it began,
 * so a write whose reply their client saw has committed, and its bump is seen (a transaction's reads
 * share its first look: what it handles arrived before it began; PostgresStore.fresh). A collection with a
 * row of another process's backend that moved (or went) loses its cached documents and counts.
 * This process's own commits forget what they touched instead, as on SQLite.
 *
 * A read that missed fills the cache only if no look or commit emptied or changed the collection
 * meanwhile (its epoch): what it found may predate a commit already accounted for. Reads inside a
 * transaction of a collection it wrote neither use nor fill the caches: they may see its own writes.
 * A look is taken only to believe what a cache holds: a read that finds nothing there asks the
 * server, and the next look empties what it kept if a commit it did not see moved a version.
 */
export class PostgresReadCaches {
  private readonly docs = new Map<string, DocCache<BaseDoc>>();
  private readonly counts = new Map<string, CountCache>();
  /** The rows as the last look saw them: `collection pid` → v. */
  private seen = new Map<string, string>();
  private readonly epochs = new Map<string, number>();
  /** The backends of this process's pool: their rows move with its own commits. */
  private readonly ownPids = new Set<number>();
  /** The look of this turn of the event loop, which reads of this turn share. */
  private look?: Promise<void>;

  constructor(
    private readonly schema: string,
    /** Runs one statement on the pool (outside any transaction). */
    private readonly query: <R>(statement: QueryConfig) => Promise<R[]>,
  ) {}

  /** The table of version rows. */
  get table(): string {
    return `${quoteName(this.schema)}._versions`;
  }

  /** At open: a collection declared later gets no cache. */
  declare<T extends BaseDoc>(def: CollectionDef<T>): void {
    if (def.cacheById && !this.docs.has(def.name)) this.docs.set(def.name, new DocCache<BaseDoc>(def.cacheById, uniqueKeysOf(def)));
    if (def.cacheCounts && !this.counts.has(def.name)) this.counts.set(def.name, new CountCache(def.cacheCounts));
  }

  docCache<T extends BaseDoc>(collection: string): DocCache<T> | undefined {
    return this.docs.get(collection) as DocCache<T> | undefined;
  }

  countCache(collection: string): CountCache | undefined {
    return this.counts.get(collection);
  }

  /** Whether writes of `collection` bump its version: it has a cache. */
  versioned(collection: string): boolean {
    return this.docs.has(collection) || this.counts.has(collection);
  }

  /** A connection of this process's pool opened (`pid`) or closed (`ended`). */
  backend(pid: number | null, ended = false): void {
    if (pid === null) return;
    if (ended) this.ownPids.delete(pid);
    else this.ownPids.add(pid);
  }

  /** The statements run at open under the DDL lock: the table, then the rows of backends that are gone. */
  ddl(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (collection text, pid integer, v bigint NOT NULL, PRIMARY KEY (collection, pid))`,
      this.sweep(),
    ];
  }

  /** Drops the rows of backends that are gone (a look takes a row gone as a change, so this empties caches once). */
  sweep(): string {
    return `DELETE FROM ${this.table} WHERE pid NOT IN (SELECT pid FROM pg_stat_activity)`;
  }

  /** The statement that bumps the versions of `collections`, run in the transaction that wrote them (a data-modifying WITH of a write alone). */
  bump(collections: Iterable<string>): string {
    const names = this.versionedOf(collections);
    return names.length === 0 ? '' : this.bumpSql(`ARRAY[${names.map(literal).join(', ')}]`);
  }

  /** The same with the names as a parameter (prepared once per connection): the bump a COMMIT carries. */
  bumpStatement(collections: Iterable<string>): QueryConfig | null {
    const names = this.versionedOf(collections);
    return names.length === 0 ? null : { text: this.bumpSql('$1::text[]'), values: [names] };
  }

  private versionedOf(collections: Iterable<string>): string[] {
    return [...collections].filter((name) => this.versioned(name)).sort();
  }

  private bumpSql(names: string): string {
    return `INSERT INTO ${this.table} AS t (collection, pid, v) SELECT c, pg_backend_pid(), 1 FROM unnest(${names}) AS c
      ON CONFLICT (collection, pid) DO UPDATE SET v = t.v + 1`;
  }

  /** Waits for this turn's look at the versions: the caches then hold nothing older than what the turn's requests must see. */
  fresh(): Promise<void> {
    if (!this.look) {
      const look = (this.look = this.lookAtVersions());
      setImmediate(() => {
        if (this.look === look) this.look = undefined;
      });
      // A failed look is not kept for the turn's other reads: each fails on its own and the next turn looks again.
      look.catch(() => this.look === look && (this.look = undefined));
    }
    return this.look;
  }

  /**
   * The rows of other processes' backends only: this process's own commits forgot what they
   * touched already, and a service's pool bumps a row per collection and connection (up to a
   * hundred rows, read and parsed every turn, for none to act on where it runs alone). A row of a
   * connection this process has closed is read again, and taken as moved once.
   */
  private async lookAtVersions(): Promise<void> {
    const rows = await this.query<VersionRow>({
      name: `versions-look:${this.schema}`,
      text: `SELECT collection, pid, v::text AS v FROM ${this.table} WHERE pid <> ALL($1::int[])`,
      values: [[...this.ownPids]],
    });
    const now = new Map(rows.map((r) => [`${r.collection} ${r.pid}`, r.v]));
    const moved = new Set<string>();
    for (const r of rows) if (this.seen.get(`${r.collection} ${r.pid}`) !== r.v) moved.add(r.collection);
    for (const key of this.seen.keys()) if (!now.has(key)) moved.add(key.slice(0, key.indexOf(' ')));
    this.seen = now;
    moved.forEach((collection) => this.forget(collection));
  }

  /** What a read about to miss notes, to ask `mayFill` with once it has the rows. */
  epoch(collection: string): number {
    return this.epochs.get(collection) ?? 0;
  }

  /** Nothing emptied or changed the collection's caches since the read that took `epoch` began. */
  mayFill(collection: string, epoch: number): boolean {
    return this.epoch(collection) === epoch;
  }

  /** After a commit of this process (or one that may have happened): what it wrote is forgotten, its counts go, reads begun before fill nothing. */
  committed(collection: string, effects: readonly CacheEffect[]): void {
    const cache = this.docs.get(collection);
    if (cache) effects.forEach((effect) => effect(cache));
    this.counts.get(collection)?.clear();
    this.epochs.set(collection, this.epoch(collection) + 1);
  }

  /** Another process changed the collection, or a commit of this one may have: everything cached of it goes. */
  forget(collection: string): void {
    this.docs.get(collection)?.clear();
    this.committed(collection, []);
  }

  clear(): void {
    for (const name of new Set([...this.docs.keys(), ...this.counts.keys()])) this.forget(name);
    this.seen.clear();
    this.ownPids.clear();
    this.look = undefined;
  }
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;
