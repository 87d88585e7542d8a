import { BaseDoc, CollectionDef } from '../store.port';
import { CountCache } from '../read-cache/count-cache';
import { DocCache, uniqueKeysOf } from '../read-cache/doc-cache';
import { quoteName } from './postgres-indexes';

/** Version rows per collection: writers on different connections bump different rows, so no row is a hot lock. */
const STRIPES = 16;

/**
 * The document and count caches of the PostgreSQL store (collections declared with `cacheById` or
 * `cacheCounts`; docs/decisions/store.md), kept coherent across every process that shares the
 * schema, replicas included, the way SQLite's `data_version` keeps the embedded one's.
 *
 * A write of a cached collection bumps that collection's version in the same transaction: a row
 * of `_versions` per collection and stripe (the writer's backend pid picks the stripe), so the sum
 * of a collection's rows grows with each commit that changed it and with nothing else. A read a
 * cache could answer first looks at the sums, once per turn of the event loop: the requests a turn
 * handles arrived before it began, so a write whose reply their client saw has committed, and its
 * bump is seen. A collection whose sum moved loses its cached documents and counts.
 *
 * A read that missed fills the cache only if no look or write emptied it meanwhile (its epoch):
 * what it found may predate a commit that an emptying already accounted for. Reads inside a
 * transaction neither use nor fill the caches: they may see the transaction's own writes.
 */
export class PostgresReadCaches {
  private readonly docs = new Map<string, DocCache<BaseDoc>>();
  private readonly counts = new Map<string, CountCache>();
  private readonly seen = new Map<string, string>();
  private readonly epochs = new Map<string, number>();
  /** The look of this turn of the event loop, which reads of this turn share. */
  private look?: Promise<void>;

  constructor(
    private readonly schema: string,
    /** Runs one statement on the pool (outside any transaction). */
    private readonly query: (sql: string) => Promise<{ collection: string; v: string }[]>,
  ) {}

  /** The table of version rows. */
  get table(): string {
    return `${quoteName(this.schema)}._versions`;
  }

  /** At open, with the rows `ddl` makes for it: a collection declared later gets no cache, as its writes would bump nothing. */
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

  /** Whether writes of `collection` bump its version: it has a cache here. */
  versioned(collection: string): boolean {
    return this.docs.has(collection) || this.counts.has(collection);
  }

  /** The statements that create the table and every cached collection's rows (idempotent; run at open under the DDL lock). */
  ddl(): string[] {
    const names = [...new Set([...this.docs.keys(), ...this.counts.keys()])];
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (collection text, stripe integer, v bigint NOT NULL DEFAULT 0, PRIMARY KEY (collection, stripe))`,
      ...(names.length
        ? [`INSERT INTO ${this.table} (collection, stripe) SELECT c, s FROM unnest(ARRAY[${names.map(literal).join(', ')}]) AS c, generate_series(0, ${STRIPES - 1}) AS s ON CONFLICT DO NOTHING`]
        : []),
    ];
  }

  /** The statement that bumps the versions of `collections`, run in the transaction that wrote them, last before its COMMIT. */
  bump(collections: Iterable<string>): string {
    const names = [...collections].filter((name) => this.versioned(name)).sort();
    if (names.length === 0) return '';
    return `UPDATE ${this.table} SET v = v + 1 WHERE collection IN (${names.map(literal).join(', ')}) AND stripe = pg_backend_pid() % ${STRIPES}`;
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

  private async lookAtVersions(): Promise<void> {
    const rows = await this.query(`SELECT collection, sum(v)::text AS v FROM ${this.table} GROUP BY collection`);
    for (const { collection, v } of rows) {
      const before = this.seen.get(collection);
      this.seen.set(collection, v);
      if (before !== undefined && before !== v) this.forget(collection);
    }
  }

  /** What a read about to miss notes, to ask `mayFill` with once it has the rows. */
  epoch(collection: string): number {
    return this.epochs.get(collection) ?? 0;
  }

  /** Nothing emptied the collection's caches since the read that took `epoch` began. */
  mayFill(collection: string, epoch: number): boolean {
    return this.epoch(collection) === epoch;
  }

  /** After a write of this process committed (or may have): its collection's caches go, and reads begun before fill nothing. */
  forget(collection: string): void {
    this.docs.get(collection)?.clear();
    this.counts.get(collection)?.clear();
    this.epochs.set(collection, this.epoch(collection) + 1);
  }

  clear(): void {
    for (const name of new Set([...this.docs.keys(), ...this.counts.keys()])) this.forget(name);
    this.seen.clear();
    this.look = undefined;
  }
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;
