import type { Database } from 'better-sqlite3';
import { flipInSteps } from '../flip-in-steps';
import { newId } from '../ids';
import { mingo } from '../mingo-on-demand';
import { amountsById, tallyField, upsertBase } from '../store-documents';
import { DuplicateKeyError } from '../store.errors';
import {
  BaseDoc,
  Collection,
  CountedIn,
  Filter,
  FindOptions,
  Flipped,
  GroupKey,
  Increment,
  NewDoc,
  SearchOptions,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../store.port';
import { searchWords } from '../text-search';
import { FieldShape } from '../filter-terms';
import { jsonPath, SqlFilter, toSqlFilter, toSqlOrder, toSqlPage, valueSql } from './sqlite-filter';
import { quoteName } from './sqlite-indexes';
import { CountCache, countKey } from '../read-cache/count-cache';
import { DocCache, KeyValue } from '../read-cache/doc-cache';
import { byId, idLookup, KeyLookup, keyLookup } from '../read-cache/lookups';
import { decodeDoc, encodeDoc } from './sqlite-json';
import { toSqlProjection } from './sqlite-projection';
import { ftsQuery } from './sqlite-text';
import { applyUpdate } from './sqlite-update';

type Row = Record<string, unknown>;

/** What a collection needs from its store: connections, statements, shapes, and the write gate. */
export interface SqliteEngine {
  /** Runs `work`, a read of `collection`, on a connection that shows no other context's open transaction. */
  read<R>(collection: string, work: (db: Database) => R): Promise<R>;
  /** Runs `work` as one write transaction, once no other context holds the async transaction. */
  write<R>(work: (db: Database) => R): Promise<R>;
  all(db: Database, sql: string, params: unknown[]): Row[];
  /** Rows as arrays of column values (no object per row: the projection path reads 100,000s). */
  rows(db: Database, sql: string, params: unknown[]): unknown[][];
  run(db: Database, sql: string, params: unknown[]): number;
  shapeOf(collection: string, field: string): FieldShape;
  /** Records array fields of a written document (inside the write's transaction). */
  learnShapes(db: Database, collection: string, doc: object): void;
  /** The collection's document cache, if one was declared for it. */
  docCache<T extends BaseDoc>(collection: string): DocCache<T> | undefined;
  /** The collection's count cache, if one was declared for it. */
  countCache(collection: string): CountCache | undefined;
  /** Before a cached read: another process's commit since the last look empties the document caches. */
  noteOtherWriters(): void;
  /** Whether what a read of `collection` finds now may go into its document cache (committed, and staying so). */
  mayFillCaches(collection: string): boolean;
  /** Before a write of `collection`: its counts go, and inside a transaction its reads fill no cache from now on. */
  noteWrite(collection: string): void;
  /** Creates the collection's table unless it is known to exist; call from inside `write`. */
  ensureTable(collection: string): void;
  hasTable(collection: string): boolean;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Rows by their keys: one key (most reads and deletes by key: a document its own write just forgot, a
 * row just matched) by equality, more as one JSON list (any length, clear of SQLite's variable limit).
 */
function idsMatch(ids: readonly unknown[]): { where: string; params: unknown[] } {
  return ids.length === 1 ? { where: '_id = ?', params: [ids[0]] } : { where: '_id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(ids)] };
}

export class SqliteCollection<T extends BaseDoc> implements Collection<T> {
  private readonly table: string;

  constructor(
    readonly name: string,
    private readonly engine: SqliteEngine,
    /** The FTS5 table of the declared text fields, if any (kept in step by triggers: sqlite-text.ts). */
    private readonly textTable?: string,
  ) {
    this.table = quoteName(name);
  }

  /** Documents read by id (a collection declared with `cacheById`): every write here forgets what it touches. */
  private get cache(): DocCache<T> | undefined {
    return this.engine.docCache<T>(this.name);
  }

  async insert(doc: NewDoc<T>): Promise<T> {
    const [created] = await this.insertMany([doc]);
    return created;
  }

  async insertMany(docs: NewDoc<T>[]): Promise<T[]> {
    if (docs.length === 0) return [];
    const rows = docs.map((d) => ({ ...d, _id: d._id ?? newId() }) as unknown as T);
    await this.writing((db) => rows.forEach((row) => this.insertRow(db, row)));
    return rows;
  }

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    const [first] = await this.find(filter, { ...options, limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const cache = this.cache;
    const ids = cache !== undefined ? idLookup(filter, options) : undefined;
    if (ids) return this.findByIds(ids);
    const key = cache?.uniqueKeys.length ? keyLookup(filter, options, cache.uniqueKeys) : undefined;
    if (key) return this.findByKeys(filter, key);
    await this.tableReady();
    return this.engine.read(this.name, (db) => this.findIn(db, filter, options));
  }

  /**
   * A lookup by a unique key through the document cache: what it knows (found or absent) from
   * there, and when anything is not known, the filter's query, whose documents and absent keys
   * are then kept. In `_id` order, as a lookup by ids gives them.
   */
  private async findByKeys(filter: Filter, { fields, wanted }: KeyLookup): Promise<T[]> {
    const cache = this.cache!;
    this.engine.noteOtherWriters();
    const found: T[] = [];
    for (const values of wanted) {
      const doc = cache.byKey(fields, values);
      if (doc === undefined) return this.readKeys(filter, fields, wanted);
      if (doc) found.push(doc);
    }
    return found.length > 1 ? found.sort(byId) : found;
  }

  private async readKeys(filter: Filter, fields: readonly string[], wanted: KeyValue[][]): Promise<T[]> {
    const cache = this.cache!;
    await this.tableReady();
    return this.engine.read(this.name, (db) => {
      const docs = this.findIn(db, filter, {});
      return (this.engine.mayFillCaches(this.name) ? cache.keepKeys(fields, wanted, docs) : docs).sort(byId);
    });
  }

  /** A lookup by ids through the document cache: only the ids it lacks are read, then kept. In `_id` order, as SQL gives them. */
  private async findByIds(ids: string[]): Promise<T[]> {
    const cache = this.cache!;
    this.engine.noteOtherWriters();
    const { found, missing } = cache.lookUp(ids);
    if (missing.length > 0) {
      await this.tableReady();
      const read = await this.engine.read(this.name, (db) => {
        const keys = idsMatch(missing);
        const docs = this.engine.all(db, `SELECT doc FROM ${this.table} WHERE ${keys.where}`, keys.params).map((r) => decodeDoc<T>(r.doc as string));
        return this.engine.mayFillCaches(this.name) ? cache.keepIds(missing, docs) : docs;
      });
      found.push(...read);
    }
    return found.length > 1 ? found.sort(byId) : found;
  }

  private findIn(db: Database, filter: Filter, options: FindOptions): T[] {
    const sql = this.sqlFilter(filter);
    const order = options.sort ? toSqlOrder(options.sort, (f) => this.engine.shapeOf(this.name, f)) : '';
    if (!sql.complete || order === null) {
      let cursor = mingo().find(this.candidates(db, sql), filter, options.projection);
      if (options.sort) cursor = cursor.sort(options.sort);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit) cursor = cursor.limit(options.limit);
      return cursor.all() as unknown as T[];
    }
    const params = [...sql.params];
    const projected = options.projection ? toSqlProjection(options.projection) : null;
    let text = `SELECT ${projected ? projected.columns : 'doc'} FROM ${this.table} WHERE ${sql.where}${order ? ` ORDER BY ${order}` : ''}`;
    if (options.limit || options.skip) text += toSqlPage(options.limit, options.skip);
    if (projected) return this.engine.rows(db, text, params).map((r) => projected.build(r) as T);
    const docs = this.engine.all(db, text, params).map((r) => decodeDoc<T>(r.doc as string));
    return options.projection ? (mingo().find(docs, {}, options.projection).all() as unknown as T[]) : docs;
  }

  async count(filter: Filter): Promise<number> {
    const counts = this.engine.countCache(this.name);
    const key = counts && countKey(filter);
    if (key !== undefined) {
      this.engine.noteOtherWriters();
      const known = counts!.get(key);
      if (known !== undefined) return known;
    }
    await this.tableReady();
    return this.engine.read(this.name, (db) => {
      const count = this.countIn(db, filter);
      if (key !== undefined && this.engine.mayFillCaches(this.name)) counts!.put(key, count);
      return count;
    });
  }

  private countIn(db: Database, filter: Filter): number {
    const sql = this.sqlFilter(filter);
    if (!sql.complete) {
      // One Query for all candidates: building one (mingo's operator context) costs more than testing a document.
      const query = new (mingo().Query)(filter);
      return this.candidates(db, sql).filter((d) => query.test(d)).length;
    }
    const [row] = this.engine.all(db, `SELECT count(*) AS n FROM ${this.table} WHERE ${sql.where}`, sql.params);
    return row.n as number;
  }

  async countBy(filter: Filter, field: string): Promise<Map<GroupKey, number>> {
    await this.tableReady();
    return this.engine.read(this.name, (db) => this.countByIn(db, filter, field));
  }

  /**
   * GROUP BY the field's expression: the same text as its expression index, so SQLite counts
   * from the index alone when one leads with the field (likes by review_id) and reads no document.
   */
  private countByIn(db: Database, filter: Filter, field: string): Map<GroupKey, number> {
    const sql = this.sqlFilter(filter);
    const path = jsonPath(field);
    const shape = field === '_id' ? 'scalar' : this.engine.shapeOf(this.name, field);
    if (!sql.complete || path === null || shape !== 'scalar') {
      const query = new (mingo().Query)(filter);
      const docs = this.candidates(db, sql).filter((d) => sql.complete || query.test(d));
      return tallyField(docs, field);
    }
    const value = valueSql(field, path);
    const counts = new Map<GroupKey, number>();
    const rows = this.engine.all(db, `SELECT ${value} AS v, count(*) AS n FROM ${this.table} WHERE ${sql.where} GROUP BY ${value}`, sql.params);
    for (const r of rows) counts.set(r.v as GroupKey, r.n as number);
    // json_extract gives true and false as 1 and 0: only those groups are told apart by type.
    if (field !== '_id' && (counts.has(0) || counts.has(1))) {
      counts.delete(0);
      counts.delete(1);
      const text = `SELECT ${value} AS v, json_type(doc, '${path}') AS t, count(*) AS n FROM ${this.table} WHERE (${sql.where}) AND ${value} IN (0, 1) GROUP BY 1, 2`;
      for (const r of this.engine.all(db, text, sql.params)) {
        const key = r.t === 'true' ? true : r.t === 'false' ? false : (r.v as number);
        counts.set(key, (counts.get(key) ?? 0) + (r.n as number));
      }
    }
    return counts;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.writing((db) => this.updateRows(db, filter, update, 1, options.upsert ?? false).result);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.writing((db) => this.updateRows(db, filter, update, undefined, false).result);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    return this.writing((db) => this.updateRows(db, filter, update, 1, options.upsert ?? false).docs[0] ?? null);
  }

  /** One write transaction, a document at a time inside it (no round trip to save in process). */
  async incrementEach(amounts: readonly Increment[]): Promise<number> {
    const byId = amountsById(amounts);
    if (byId.size === 0) return 0;
    return this.writing((db) => {
      let matched = 0;
      for (const [id, inc] of byId) matched += this.updateRows(db, { _id: id }, { $inc: inc }, 1, false).result.matched;
      return matched;
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.writing((db) => this.deleteRows(db, filter, 1));
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.writing((db) => this.deleteRows(db, filter, undefined));
  }

  /** In process, a statement costs no round trip: written now, inside the open transaction if any (a refusal throws there and rolls it back). */
  async writeWithCommit({ insert = [], remove = [] }: { insert?: NewDoc<T>[]; remove?: string[] }): Promise<void> {
    if (insert.length > 0) await this.insertMany(insert);
    if (remove.length > 0) await this.deleteMany({ _id: { $in: remove } });
  }

  async updateWithCommit(filter: Filter, update: Update): Promise<void> {
    await this.updateMany(filter, update);
  }

  async deleteWithCommit(filter: Filter): Promise<void> {
    await this.deleteMany(filter);
  }

  flip(doc: NewDoc<T>, match: Filter, counted: CountedIn): Promise<Flipped | null> {
    return flipInSteps(this, doc, match, counted);
  }

  async search(words: string, filter: Filter, options: SearchOptions = {}): Promise<T[]> {
    if (!this.textTable) throw new Error(`${this.name} declares no text fields to search`);
    const terms = searchWords(words);
    if (terms.length === 0) return [];
    await this.tableReady();
    return this.engine.read(this.name, (db) => this.searchIn(db, ftsQuery(terms), filter, options));
  }

  /** Ranked by bm25 (lower is better); a filter SQL cannot express is applied by mingo to the ranked matches. */
  private searchIn(db: Database, match: string, filter: Filter, options: SearchOptions): T[] {
    const fts = quoteName(this.textTable!);
    const sql = this.sqlFilter(filter);
    const ranked = `SELECT ${this.table}.doc FROM ${fts} JOIN ${this.table} ON ${this.table}.rowid = ${fts}.rowid WHERE ${fts} MATCH ? AND (${sql.where}) ORDER BY bm25(${fts}), ${this.table}._id`;
    const skip = options.skip ?? 0;
    if (!sql.complete) {
      const query = new (mingo().Query)(filter);
      const docs = this.engine.all(db, ranked, [match, ...sql.params]).map((r) => decodeDoc<T>(r.doc as string));
      const kept = docs.filter((d) => query.test(d as unknown as Row));
      return kept.slice(skip, options.limit ? skip + options.limit : undefined);
    }
    const rows = this.engine.all(db, `${ranked}${toSqlPage(options.limit, skip)}`, [match, ...sql.params]);
    return rows.map((r) => decodeDoc<T>(r.doc as string));
  }

  /** A collection no declaration created (or created in a transaction that rolled back) gets its table now. */
  private async tableReady(): Promise<void> {
    if (!this.engine.hasTable(this.name)) await this.engine.write(() => this.engine.ensureTable(this.name));
  }

  private sqlFilter(filter: Filter): SqlFilter {
    return toSqlFilter(filter, (f) => this.engine.shapeOf(this.name, f));
  }

  /** Documents the SQL part of an incomplete filter lets through; mingo decides on them. */
  private candidates(db: Database, sql: SqlFilter): Row[] {
    return this.engine.all(db, `SELECT doc FROM ${this.table} WHERE ${sql.where}`, sql.params).map((r) => decodeDoc<Row>(r.doc as string));
  }

  /** Matching documents in full, at most `limit` of them. */
  private matching(db: Database, filter: Filter, limit: number | undefined): Row[] {
    const sql = this.sqlFilter(filter);
    if (!sql.complete) {
      const query = new (mingo().Query)(filter);
      return this.candidates(db, sql)
        .filter((d) => query.test(d))
        .slice(0, limit);
    }
    const text = `SELECT doc FROM ${this.table} WHERE ${sql.where}${limit ? ` LIMIT ${limit}` : ''}`;
    return this.engine.all(db, text, sql.params).map((r) => decodeDoc<Row>(r.doc as string));
  }

  /** Read, modify, write back: inside one write transaction, so concurrent $inc cannot be lost. */
  private updateRows(db: Database, filter: Filter, update: Update, limit: number | undefined, upsert: boolean) {
    const found = this.matching(db, filter, limit);
    if (found.length === 0 && upsert) {
      const doc = upsertBase(filter);
      applyUpdate(doc, update);
      doc._id ??= newId();
      this.insertRow(db, doc as T);
      return { result: { matched: 0, modified: 0, upserted: true }, docs: [doc as T] };
    }
    let modified = 0;
    for (const doc of found) {
      const id = doc._id;
      if (!applyUpdate(doc, update)) continue;
      doc._id = id;
      this.engine.run(db, `UPDATE ${this.table} SET doc = ? WHERE _id = ?`, [encodeDoc(doc), id]);
      this.cache?.written(doc as T);
      this.engine.learnShapes(db, this.name, doc);
      modified++;
    }
    return { result: { matched: found.length, modified, upserted: false }, docs: found as T[] };
  }

  private deleteRows(db: Database, filter: Filter, limit: number | undefined): number {
    const sql = this.sqlFilter(filter);
    if (sql.complete && !limit) {
      this.cache?.clear();
      return this.engine.run(db, `DELETE FROM ${this.table} WHERE ${sql.where}`, sql.params);
    }
    const ids = this.matching(db, filter, limit).map((d) => d._id);
    if (ids.length === 0) return 0;
    ids.forEach((id) => this.cache?.forget(id as string));
    const keys = idsMatch(ids);
    return this.engine.run(db, `DELETE FROM ${this.table} WHERE ${keys.where}`, keys.params);
  }

  private insertRow(db: Database, doc: T): void {
    this.engine.run(db, `INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`, [doc._id, encodeDoc(doc)]);
    this.cache?.written(doc);
    this.engine.learnShapes(db, this.name, doc);
  }

  /** A write; a unique index refusing it becomes DuplicateKeyError (and the transaction rolls back). */
  private async writing<R>(work: (db: Database) => R): Promise<R> {
    try {
      return await this.engine.write((db) => {
        this.engine.noteWrite(this.name);
        this.engine.ensureTable(this.name);
        return work(db);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateKeyError(this.name, (err as Error).message);
      throw err;
    }
  }
}
