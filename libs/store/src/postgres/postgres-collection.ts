import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { countIn, flipInSteps } from '../flip-in-steps';
import { newId } from '../ids';
import { mingo } from '../mingo-on-demand';
import { amountsById, tallyField, upsertBase } from '../store-documents';
import { FieldShape } from '../filter-terms';
import { applyUpdate } from '../sqlite/sqlite-update';
import { DuplicateKeyError } from '../store.errors';
import { CountCache, countKey } from '../read-cache/count-cache';
import { DocCache, KeyValue } from '../read-cache/doc-cache';
import { byId, idLookup, KeyLookup, keyLookup } from '../read-cache/lookups';
import {
  BaseDoc,
  Collection,
  CountedIn,
  Filter,
  FindOptions,
  FlipFollowUp,
  Flipped,
  GroupKey,
  Increment,
  NewDoc,
  Projection,
  QueuedFlip,
  SearchOptions,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../store.port';
import { fieldSql, Params, PgFilter, toPgFilter, toPgOrder } from './postgres-filter';
import { fromJsonb, toJsonb } from './postgres-json';
import { tsqueryOf } from './postgres-text';
import { plainUpdateSql } from './postgres-update';

type Row = Record<string, unknown>;

/** A connection or the pool: what runs a statement. */
export interface Queryable {
  query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>>;
}

/** Who hears what a statement sent with the COMMIT returned: its rows once committed, or the error that rolled it back. */
export interface CommitReply {
  rows(rows: Row[]): void;
  failed(err: unknown): void;
}

/** What a collection needs from its store. */
export interface PostgresEngine {
  query<R extends QueryResultRow>(sql: string, params?: unknown[], rowMode?: 'array'): Promise<R[]>;
  /** One statement writing `collection`: inside a transaction, under its own savepoint unless `guarded` is false. */
  write<R extends QueryResultRow>(collection: string, sql: string, params: unknown[], guarded?: boolean): Promise<R[]>;
  /**
   * Statements writing `collection` sent with the open transaction's COMMIT, with what they change
   * in the document cache; `reply` hears the statement's rows (its text then does not vary).
   */
  withCommit(collection: string, statement: QueryConfig, effect: (cache: DocCache<BaseDoc>) => void, reply?: CommitReply): void;
  /** Whether a statement now runs inside a transaction (`transaction`), not on its own. */
  transactionOpen(): boolean;
  /** Whether a write of this kind to the collection may be refused (so needs a savepoint in a transaction). */
  mayRefuse(collection: string, kind: 'update' | 'other', touched?: readonly string[]): boolean;
  /** Several statements writing `collection` that commit or roll back together. */
  atomic<R>(collection: string, work: (on: Queryable) => Promise<R>): Promise<R>;
  /** The collection's document cache, if one was declared for it. */
  docCache<T extends BaseDoc>(collection: string): DocCache<T> | undefined;
  /** The collection's count cache, if one was declared for it. */
  countCache(collection: string): CountCache | undefined;
  /** Whether a read of the collection may use and fill its caches here (not in a transaction that wrote it). */
  cachesUsable(collection: string): boolean;
  /** Before a read believes a cache: stale entries are gone (see PostgresReadCaches). */
  fresh(): Promise<void>;
  /** Taken before a read that may fill a cache; `mayFill` tells after it whether it still may. */
  epoch(collection: string): number;
  mayFill(collection: string, epoch: number): boolean;
  /** After a write statement returned: what it changed in the document cache (applied once it is committed). */
  afterWrite(collection: string, effect: (cache: DocCache<BaseDoc>) => void): void;
  table(collection: string): string;
  shapeOf(collection: string, field: string): FieldShape;
  learnShapes(collection: string, doc: object): Promise<void>;
  /** The folded search vector of a document of a collection with text fields, else null. */
  searchOf(collection: string, doc: Row): string | null;
  ensureTable(collection: string): Promise<void>;
}

/** The ids a filter limits a write to (`_id` equal to one, or in a list), if it does. */
function pinnedIds(filter: Filter): string[] | undefined {
  const id = filter._id;
  if (typeof id === 'string') return [id];
  const list = typeof id === 'object' && id !== null ? (id as { $in?: unknown }).$in : undefined;
  return Array.isArray(list) && list.every((v) => typeof v === 'string') ? list : undefined;
}

/** A top-level field a count may live in (written into the statement as a parameter, checked all the same). */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a write left to the commit changes in the document cache: the ids its filter pins, else everything. */
function forgetting(filter: Filter): (cache: DocCache<BaseDoc>) => void {
  const ids = pinnedIds(filter);
  return (cache) => (ids ? ids.forEach((id) => cache.forget(id)) : cache.clear());
}

/** What the flip's statement returns: the id it inserted or deleted, and the count's document after it. */
interface FlipRow {
  inserted: string | null;
  deleted: string | null;
  counter: BaseDoc | null;
}

const FLIP_RESULT = 'SELECT (SELECT _id FROM ins) AS inserted, (SELECT _id FROM del) AS deleted, (SELECT doc FROM counter) AS counter';

/** A flip's statement in parts (`PostgresCollection.flipPlan`). */
interface FlipPlan<T extends BaseDoc> {
  row: T;
  counts: PostgresCollection<BaseDoc>;
  params: Params;
  withs: string;
  /** The counted field, as the parameter that names it. */
  field: string;
  /** Whether a part may be refused (a table this process has not seen yet, a unique field). */
  guarded: boolean;
}

function flipOutcome(done: FlipRow, field: string): Flipped | null {
  if (!done.inserted && !done.deleted) return null;
  return { inserted: Boolean(done.inserted), count: countIn(done.counter, field) };
}

/** What a flip did to its collection's cache: the row it inserted, or the one it deleted gone. */
function flipped(cache: DocCache<BaseDoc>, done: FlipRow, row: BaseDoc): void {
  if (done.inserted) cache.written(row);
  else if (done.deleted) cache.forget(done.deleted);
}

/** `doc` with `count` at `path`, as the statement wrote it. */
function withCount<D extends BaseDoc>(doc: D, path: readonly string[], count: number): D {
  const copy = structuredClone(doc) as D & Row;
  let at: Row = copy;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]] = count;
  return copy;
}

/** SQLSTATE 23505: a unique index refused the write. */
function asDuplicate(collection: string, err: unknown): unknown {
  if ((err as { code?: string })?.code !== '23505') return err;
  return new DuplicateKeyError(collection, (err as { detail?: string }).detail ?? (err as Error).message);
}

/** SQLSTATE 42P01: the table does not exist (yet). */
const isMissingTable = (err: unknown): boolean => (err as { code?: string })?.code === '42P01';

/** An inclusion projection of top-level fields, read as jsonb text per field (see sqlite-projection.ts). */
function projectionColumns(projection: Projection): { columns: string; build(row: unknown[]): Row } | null {
  const fields: string[] = [];
  let withId = true;
  for (const [field, on] of Object.entries(projection)) {
    if (field === '_id') withId = Boolean(on);
    else if (!on || field.includes('.') || field === '__proto__' || fieldSql(field) === null) return null;
    else fields.push(field);
  }
  // `{ _id: 1 }`, the ids alone (an inbox's, a page's), reads no document and needs no mingo
  // (loading it cost each process ~0.5 s of CPU at its first event); `{ _id: 0 }` alone is an exclusion: mingo's.
  if (fields.length === 0 && !(withId && projection._id !== undefined)) return null;
  return {
    // As text: a missing field is SQL NULL, a stored null is the text 'null'.
    columns: ['_id', ...fields.map((f) => `(${fieldSql(f)})::text`)].join(', '),
    build(row) {
      const doc: Row = withId ? { _id: row[0] } : {};
      for (let i = 0; i < fields.length; i++) if (row[i + 1] !== null) doc[fields[i]] = fromJsonb(row[i + 1] as string);
      return doc;
    },
  };
}

export class PostgresCollection<T extends BaseDoc> implements Collection<T> {
  private readonly table: string;

  constructor(
    readonly name: string,
    private readonly engine: PostgresEngine,
    private readonly textFields: readonly string[],
  ) {
    this.table = engine.table(name);
  }

  async insert(doc: NewDoc<T>): Promise<T> {
    const [created] = await this.insertMany([doc]);
    return created;
  }

  async insertMany(docs: NewDoc<T>[]): Promise<T[]> {
    if (docs.length === 0) return [];
    const rows = docs.map((d) => ({ ...d, _id: d._id ?? newId() }) as unknown as T);
    for (const row of rows) await this.engine.learnShapes(this.name, row);
    const { text: insert, values: params } = this.insertOf(rows);
    if (rows.length === 1) {
      // One row: a refusal is an empty answer, not an error, so no savepoint is needed to survive it.
      const guarded = this.engine.mayRefuse(this.name, 'other');
      const stored = await this.writing(() => this.engine.write(this.name, `${insert} ON CONFLICT DO NOTHING RETURNING _id`, params, guarded));
      if (stored.length === 0) throw new DuplicateKeyError(this.name, `_id ${rows[0]._id} or a unique index: already exists`);
    } else if (this.engine.transactionOpen() && !this.engine.mayRefuse(this.name, 'other')) {
      // All or none without a savepoint (two round trips a batch): the rows a refusal let in are taken out again.
      const stored = await this.writing(() => this.engine.write<{ _id: string }>(this.name, `${insert} ON CONFLICT DO NOTHING RETURNING _id`, params, false));
      if (stored.length < rows.length) {
        await this.engine.write(this.name, `DELETE FROM ${this.table} WHERE _id = ANY($1::text[])`, [stored.map((r) => r._id)], false);
        throw new DuplicateKeyError(this.name, `${rows.length - stored.length} of ${rows.length} rows: _id or a unique index already exists`);
      }
    } else {
      // One statement for the batch: all of it is stored or, on a duplicate key, none of it.
      await this.writing(() => this.engine.write(this.name, insert, params));
    }
    this.written(rows);
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
    const cache = this.engine.docCache<T>(this.name);
    if (cache) {
      const ids = idLookup(filter, options);
      const key = !ids && cache.uniqueKeys.length ? keyLookup(filter, options, cache.uniqueKeys) : undefined;
      if ((ids || key) && this.engine.cachesUsable(this.name)) return ids ? this.findByIds(cache, ids) : this.findByKeys(cache, filter, key!);
    }
    return this.query(filter, options);
  }

  /** A lookup by ids through the document cache: only the ids it lacks are read, then kept. In `_id` order. */
  private async findByIds(cache: DocCache<T>, ids: string[]): Promise<T[]> {
    // Anything the cache holds (absence included) is believed only after this turn's look.
    if (ids.some((id) => cache.get(id) !== undefined)) await this.engine.fresh();
    const { found, missing } = cache.lookUp(ids);
    if (missing.length > 0) {
      const epoch = this.engine.epoch(this.name);
      const params = new Params();
      const docs = (await this.read<{ doc: T }>(`SELECT doc FROM ${this.table} WHERE _id = ANY(${params.add(missing)}::text[])`, params)).map((r) => r.doc);
      found.push(...(this.engine.mayFill(this.name, epoch) ? cache.keepIds(missing, docs) : docs));
    }
    return found.length > 1 ? found.sort(byId) : found;
  }

  /** A lookup by a unique key: what the cache knows (found or absent), else the filter's query, whose documents and absent keys are kept. */
  private async findByKeys(cache: DocCache<T>, filter: Filter, { fields, wanted }: KeyLookup): Promise<T[]> {
    if (wanted.some((values) => cache.byKey(fields, values) === undefined)) return this.readKeys(cache, filter, fields, wanted);
    await this.engine.fresh();
    const found: T[] = [];
    for (const values of wanted) {
      const doc = cache.byKey(fields, values);
      if (doc === undefined) return this.readKeys(cache, filter, fields, wanted);
      if (doc) found.push(doc);
    }
    return found.length > 1 ? found.sort(byId) : found;
  }

  private async readKeys(cache: DocCache<T>, filter: Filter, fields: readonly string[], wanted: KeyValue[][]): Promise<T[]> {
    const epoch = this.engine.epoch(this.name);
    const docs = await this.query(filter, {});
    return (this.engine.mayFill(this.name, epoch) ? cache.keepKeys(fields, wanted, docs) : docs).sort(byId);
  }

  private async query(filter: Filter, options: FindOptions): Promise<T[]> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const order = options.sort ? toPgOrder(options.sort, (f) => this.engine.shapeOf(this.name, f)) : '';
    if (!sql.complete || order === null) {
      let cursor = mingo().find(await this.candidates(sql, params), filter, options.projection);
      if (options.sort) cursor = cursor.sort(options.sort);
      if (options.skip) cursor = cursor.skip(options.skip);
      if (options.limit) cursor = cursor.limit(options.limit);
      return cursor.all() as unknown as T[];
    }
    const projected = options.projection ? projectionColumns(options.projection) : null;
    let text = `SELECT ${projected ? projected.columns : 'doc'} FROM ${this.table} WHERE ${sql.where}${order ? ` ORDER BY ${order}` : ''}`;
    if (options.limit) text += ` LIMIT ${params.add(options.limit)}`;
    if (options.skip) text += ` OFFSET ${params.add(options.skip)}`;
    if (projected) return (await this.read<unknown[]>(text, params, 'array')).map((r) => projected.build(r) as T);
    const docs = (await this.read<{ doc: T }>(text, params)).map((r) => r.doc);
    return options.projection ? (mingo().find(docs, {}, options.projection).all() as unknown as T[]) : docs;
  }

  async count(filter: Filter): Promise<number> {
    const counts = this.engine.countCache(this.name);
    const key = counts && countKey(filter);
    if (key === undefined || !this.engine.cachesUsable(this.name)) return this.countNow(filter);
    if (counts!.get(key) !== undefined) await this.engine.fresh();
    const known = counts!.get(key);
    if (known !== undefined) return known;
    const epoch = this.engine.epoch(this.name);
    const count = await this.countNow(filter);
    if (this.engine.mayFill(this.name, epoch)) counts!.put(key, count);
    return count;
  }

  private async countNow(filter: Filter): Promise<number> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    if (!sql.complete) {
      const query = new (mingo().Query)(filter);
      return (await this.candidates(sql, params)).filter((d) => query.test(d)).length;
    }
    const [row] = await this.read<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE ${sql.where}`, params);
    return Number(row.n);
  }

  /** GROUP BY the field's jsonb expression (its index's): jsonb keeps true, 1 and "1" apart. */
  async countBy(filter: Filter, field: string): Promise<Map<GroupKey, number>> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const value = fieldSql(field);
    const shape = field === '_id' ? 'scalar' : this.engine.shapeOf(this.name, field);
    if (!sql.complete || value === null || shape !== 'scalar') {
      const query = new (mingo().Query)(filter);
      return tallyField((await this.candidates(sql, params)).filter((d) => sql.complete || query.test(d)), field);
    }
    const rows = await this.read<{ v: unknown; n: string }>(`SELECT ${value} AS v, count(*) AS n FROM ${this.table} WHERE ${sql.where} GROUP BY 1`, params);
    const counts = new Map<GroupKey, number>();
    for (const r of rows) {
      if (typeof r.v === 'object' && r.v !== null) throw new Error(`countBy groups by a field holding one scalar; ${field} holds ${Array.isArray(r.v) ? 'an array' : 'an object'}`);
      // A missing field (SQL NULL) and a stored null are one group.
      const key = (r.v ?? null) as GroupKey;
      counts.set(key, (counts.get(key) ?? 0) + Number(r.n));
    }
    return counts;
  }

  updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(filter, update, 1, options.upsert ?? false).then((r) => r.result);
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(filter, update, undefined, false).then((r) => r.result);
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    return (await this.update(filter, update, 1, options.upsert ?? false)).docs[0] ?? null;
  }

  /**
   * One UPDATE joined to the documents' ids and amounts (two array parameters): each field of a
   * document's amounts is added as `$inc` adds it (`plainUpdateSql`), a field it does not list left
   * as it is. A text field among them, or an amount that is not a finite number, goes document by document.
   */
  async incrementEach(amounts: readonly Increment[]): Promise<number> {
    const byId = amountsById(amounts);
    if (byId.size === 0) return 0;
    const fields = [...new Set([...byId.values()].flatMap((inc) => Object.keys(inc)))];
    const plain = [...byId.values()].every((inc) => Object.values(inc).every((by) => typeof by === 'number' && Number.isFinite(by)));
    if (!plain || fields.some((f) => plainUpdateSql({ $inc: { [f]: 1 } }, new Params(), this.textFields) === null)) {
      let matched = 0;
      for (const [id, inc] of byId) matched += (await this.updateOne({ _id: id }, { $inc: inc })).matched;
      return matched;
    }
    const params = new Params();
    const ids = params.add([...byId.keys()]);
    const by = params.add([...byId.values()].map((inc) => JSON.stringify(inc)));
    let expr = 'doc';
    for (const field of fields) {
      const name = `${params.add(field)}::text`;
      expr = `CASE WHEN u.by ? ${name} THEN jsonb_set(${expr}, ARRAY[${name}], to_jsonb(COALESCE((doc -> ${name})::numeric, 0) + (u.by -> ${name})::numeric)) ELSE ${expr} END`;
    }
    const rows = await this.writing(() =>
      this.engine.write<{ doc: T }>(
        this.name,
        `UPDATE ${this.table} SET doc = ${expr} FROM unnest(${ids}::text[], ${by}::jsonb[]) AS u(id, by) WHERE _id = u.id RETURNING doc`,
        params.values,
        this.engine.mayRefuse(this.name, 'update', fields),
      ),
    );
    this.written(rows.map((r) => r.doc));
    return rows.length;
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.delete(filter, 1);
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.delete(filter, undefined);
  }

  async writeWithCommit({ insert = [], remove = [] }: { insert?: NewDoc<T>[]; remove?: string[] }): Promise<void> {
    if (!this.engine.transactionOpen()) {
      if (insert.length > 0) await this.insertMany(insert);
      if (remove.length > 0) await this.deleteMany({ _id: { $in: remove } });
      return;
    }
    // Its table must exist before the COMMIT (a statement failing there rolls back everything).
    await this.engine.ensureTable(this.name);
    if (insert.length > 0) {
      const rows = insert.map((d) => ({ ...d, _id: d._id ?? newId() }) as unknown as T);
      for (const row of rows) await this.engine.learnShapes(this.name, row);
      this.engine.withCommit(this.name, this.insertOf(rows), (cache) => rows.forEach((doc) => cache.written(doc)));
    }
    if (remove.length > 0) {
      this.engine.withCommit(this.name, { text: `DELETE FROM ${this.table} WHERE _id = ANY($1::text[])`, values: [remove] }, (cache) => remove.forEach((id) => cache.forget(id)));
    }
  }

  async updateWithCommit(filter: Filter, update: Update): Promise<void> {
    if (!this.engine.transactionOpen()) {
      await this.updateMany(filter, update);
      return;
    }
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const expr = sql.complete ? plainUpdateSql(update, params, this.textFields) : null;
    const touched = Object.values(update).flatMap((fields) => Object.keys(fields as object));
    // A plain UPDATE: PostgreSQL applies the expression to the latest version of each match (READ COMMITTED re-checks the filter after a lock wait).
    if (expr === null || this.engine.mayRefuse(this.name, 'update', touched)) {
      await this.updateMany(filter, update);
      return;
    }
    if (update.$set) await this.engine.learnShapes(this.name, update.$set as object);
    this.engine.withCommit(this.name, { text: `UPDATE ${this.table} SET doc = ${expr} WHERE ${sql.where}`, values: params.values }, forgetting(filter));
  }

  async deleteWithCommit(filter: Filter): Promise<void> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    if (!this.engine.transactionOpen() || !sql.complete) {
      await this.deleteMany(filter);
      return;
    }
    await this.engine.ensureTable(this.name);
    this.engine.withCommit(this.name, { text: `DELETE FROM ${this.table} WHERE ${sql.where}`, values: params.values }, forgetting(filter));
  }

  /**
   * Inside a transaction, one statement (data-modifying WITHs): the insert, the delete that runs
   * only when the insert met a duplicate, and the count moved by whichever happened. Elsewhere,
   * and where a part is not plain SQL, the steps in turn.
   */
  async flip(doc: NewDoc<T>, match: Filter, counted: CountedIn): Promise<Flipped | null> {
    const plan = await this.flipPlan(doc, match, counted);
    if (!plan) return flipInSteps(this, doc, match, counted);
    const statement = `${plan.withs} ${FLIP_RESULT}`;
    const [done] = await this.writing(() => this.engine.write<FlipRow>(this.name, statement, plan.params.values, plan.guarded));
    this.engine.afterWrite(this.name, (cache) => flipped(cache, done, plan.row));
    if (done.counter) plan.counts.written([done.counter]);
    return flipOutcome(done, counted.field);
  }

  /**
   * The flip and the writes of its outcomes as one statement sent with the COMMIT: each follow-up
   * is a WITH that writes only when its outcome (`ins`, `del`) returned a row, an insert taking the
   * count the flip left from `counter`. Every collection it may write has its version bumped by
   * that COMMIT; their caches learn what it did once it is committed.
   */
  async flipWithCommit(doc: NewDoc<T>, match: Filter, counted: CountedIn, then: { inserted: FlipFollowUp[]; deleted: FlipFollowUp[] }): Promise<QueuedFlip | undefined> {
    const plan = await this.flipPlan(doc, match, counted);
    const followUps = [...then.inserted.map((f) => ({ f, on: 'ins' as const })), ...then.deleted.map((f) => ({ f, on: 'del' as const }))];
    if (!plan || plan.guarded || !followUps.every(({ f }) => this.sameEngine(f.collection))) return undefined;
    const effects: { collection: string; effect: (cache: DocCache<BaseDoc>, done: FlipRow) => void }[] = [];
    const withs: string[] = [];
    for (const [i, { f, on }] of followUps.entries()) {
      const target = f.collection as unknown as PostgresCollection<BaseDoc>;
      const applies = (done: FlipRow) => Boolean(on === 'ins' ? done.inserted : done.deleted);
      if ('insert' in f) {
        await this.engine.learnShapes(target.name, f.insert);
        const json = `${plan.params.add(toJsonb(f.insert))}::jsonb`;
        const value = f.countAt ? `jsonb_set(${json}, ${plan.params.add(f.countAt)}::text[], COALESCE(counter.doc -> ${plan.field}, '0'::jsonb))` : json;
        withs.push(`f${i} AS (INSERT INTO ${target.table} (_id, doc) SELECT ${plan.params.add(f.insert._id)}, ${value} FROM counter WHERE EXISTS (SELECT 1 FROM ${on}))`);
        const countAt = f.countAt;
        effects.push({ collection: target.name, effect: (cache, done) => applies(done) && cache.written(countAt ? withCount(f.insert, countAt, countIn(done.counter, counted.field)) : f.insert) });
      } else {
        const sql = target.sqlFilter(f.delete, plan.params);
        if (!sql.complete) return undefined;
        withs.push(`f${i} AS (DELETE FROM ${target.table} WHERE (${sql.where}) AND EXISTS (SELECT 1 FROM ${on}))`);
        const forget = forgetting(f.delete);
        effects.push({ collection: target.name, effect: (cache, done) => applies(done) && forget(cache) });
      }
    }
    let done: FlipRow | undefined;
    const outcome = new Promise<Flipped | null>((resolve, reject) => {
      const statement = { text: `${[plan.withs, ...withs].join(',\n      ')} ${FLIP_RESULT}`, values: plan.params.values };
      this.engine.withCommit(this.name, statement, (cache) => done && flipped(cache, done, plan.row), {
        rows: ([row]) => resolve(flipOutcome((done = row as unknown as FlipRow), counted.field)),
        failed: reject,
      });
    });
    outcome.catch(() => undefined); // a caller whose transaction threw first never asks
    this.engine.afterWrite(plan.counts.name, (cache) => done?.counter && cache.written(done.counter));
    for (const { collection, effect } of effects) this.engine.afterWrite(collection, (cache) => done && effect(cache, done));
    return { outcome };
  }

  /**
   * The flip's WITHs (ins, del, up, down, and `counter`: the count's document after it) and their
   * parameters, when every part is plain SQL inside a transaction; null otherwise.
   */
  private async flipPlan(doc: NewDoc<T>, match: Filter, counted: CountedIn): Promise<FlipPlan<T> | null> {
    const counts = counted.collection;
    const params = new Params();
    const sql = this.sqlFilter(match, params);
    const plain =
      this.engine.transactionOpen() &&
      counts instanceof PostgresCollection &&
      counts.engine === this.engine &&
      this.textFields.length === 0 &&
      counts.textFields.length === 0 &&
      sql.complete &&
      FIELD_NAME.test(counted.field);
    if (!plain) return null;
    const row = { ...doc, _id: doc._id ?? newId() } as unknown as T;
    await this.engine.learnShapes(this.name, row);
    await this.engine.ensureTable(counts.name);
    const id = params.add(row._id);
    const json = params.add(toJsonb(row));
    const countId = params.add(counted.id);
    const field = `${params.add(counted.field)}::text`;
    const now = `COALESCE((c.doc -> ${field})::numeric, 0)`;
    const withs = `WITH ins AS (INSERT INTO ${this.table} (_id, doc) VALUES (${id}, ${json}::jsonb) ON CONFLICT DO NOTHING RETURNING _id),
      del AS (DELETE FROM ${this.table} WHERE _id IN (SELECT _id FROM ${this.table} WHERE ${sql.where} AND NOT EXISTS (SELECT 1 FROM ins) LIMIT 1 FOR UPDATE) RETURNING _id),
      up AS (INSERT INTO ${counts.table} AS c (_id, doc) SELECT ${countId}, jsonb_build_object('_id', ${countId}::text, ${field}, 1) FROM ins
        ON CONFLICT (_id) DO UPDATE SET doc = jsonb_set(c.doc, ARRAY[${field}], to_jsonb(${now} + 1)) RETURNING c.doc),
      down AS (UPDATE ${counts.table} AS c SET doc = jsonb_set(c.doc, ARRAY[${field}], to_jsonb(${now} - 1))
        WHERE c._id = ${countId} AND ${now} >= 1 AND EXISTS (SELECT 1 FROM del) RETURNING c.doc),
      counter AS (SELECT COALESCE((SELECT doc FROM up), (SELECT doc FROM down), (SELECT doc FROM ${counts.table} WHERE _id = ${countId})) AS doc)`;
    const guarded = this.engine.mayRefuse(this.name, 'other') || this.engine.mayRefuse(counts.name, 'update', [counted.field]);
    return { row, counts, params, withs, field, guarded };
  }

  /** A collection of this store whose inserts and deletes can go in a statement of this one's (no search vector, nothing to refuse). */
  private sameEngine(collection: Collection<BaseDoc>): boolean {
    return collection instanceof PostgresCollection && collection.engine === this.engine && collection.textFields.length === 0 && !this.engine.mayRefuse(collection.name, 'other');
  }

  /** Ranked by ts_rank, then by id; a filter SQL cannot express is applied by mingo to the ranked matches. */
  async search(words: string, filter: Filter, options: SearchOptions = {}): Promise<T[]> {
    if (this.textFields.length === 0) throw new Error(`${this.name} declares no text fields to search`);
    const tsquery = tsqueryOf(words);
    if (tsquery === null) return [];
    const params = new Params();
    const q = `${params.add(tsquery)}::tsquery`;
    const sql = this.sqlFilter(filter, params);
    const ranked = `SELECT doc FROM ${this.table} WHERE search @@ ${q} AND (${sql.where}) ORDER BY ts_rank(search, ${q}) DESC, _id`;
    const skip = options.skip ?? 0;
    if (!sql.complete) {
      const query = new (mingo().Query)(filter);
      const kept = (await this.read<{ doc: T }>(ranked, params)).map((r) => r.doc).filter((d) => query.test(d as unknown as Row));
      return kept.slice(skip, options.limit ? skip + options.limit : undefined);
    }
    const page = `${ranked}${options.limit ? ` LIMIT ${params.add(options.limit)}` : ''} OFFSET ${params.add(skip)}`;
    return (await this.read<{ doc: T }>(page, params)).map((r) => r.doc);
  }

  private get searchColumn(): string {
    return this.textFields.length ? ', search' : '';
  }

  private get searchArray(): string {
    return this.textFields.length ? ', $3::tsvector[]' : '';
  }

  /**
   * One statement inserting `rows`: their ids, documents and search vectors as three arrays, or one
   * row as plain values (an array parameter is escaped element by element as it is sent: a like's
   * outbox and activity rows spent more on that than on their JSON).
   */
  private insertOf(rows: T[]): { text: string; values: unknown[] } {
    const search = this.searchParams(rows as unknown as Row[]);
    if (rows.length === 1) {
      return {
        text: `INSERT INTO ${this.table} (_id, doc${this.searchColumn}) VALUES ($1, $2::jsonb${this.textFields.length ? ', $3::tsvector' : ''})`,
        values: [rows[0]._id, toJsonb(rows[0]), ...search.map((vectors) => (vectors as unknown[])[0])],
      };
    }
    return {
      text: `INSERT INTO ${this.table} (_id, doc${this.searchColumn}) SELECT * FROM unnest($1::text[], $2::jsonb[]${this.searchArray})`,
      values: [rows.map((r) => r._id), rows.map((r) => toJsonb(r)), ...search],
    };
  }

  private searchParams(docs: Row[]): unknown[] {
    return this.textFields.length ? [docs.map((d) => this.engine.searchOf(this.name, d))] : [];
  }

  private sqlFilter(filter: Filter, params: Params): PgFilter {
    return toPgFilter(filter, params, (f) => this.engine.shapeOf(this.name, f));
  }

  /** A read; a collection nothing has created yet reads as empty (and gets its table). */
  private async read<R extends QueryResultRow>(sql: string, params: Params, rowMode?: 'array'): Promise<R[]> {
    try {
      return await this.engine.query<R>(sql, params.values, rowMode);
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      await this.engine.ensureTable(this.name);
      return this.engine.query<R>(sql, params.values, rowMode);
    }
  }

  /** Documents the SQL part of an incomplete filter lets through; mingo decides on them. */
  private async candidates(sql: PgFilter, params: Params): Promise<Row[]> {
    return (await this.read<{ doc: Row }>(`SELECT doc FROM ${this.table} WHERE ${sql.where}`, params)).map((r) => r.doc);
  }

  private async update(filter: Filter, update: Update, limit: 1 | undefined, upsert: boolean): Promise<{ result: UpdateResult; docs: T[] }> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const expr = sql.complete ? plainUpdateSql(update, params, this.textFields) : null;
    // A `$set` of an array (or of an object holding one) makes its field match element-wise from now on.
    if (expr !== null && update.$set) await this.engine.learnShapes(this.name, update.$set as object);
    const done =
      expr !== null
        ? await this.writing(async () => {
            // The subquery locks the matches (the latest version of each); the UPDATE applies the expression to that version.
            const rows = await this.engine.write<{ doc: T; changed: boolean }>(
              this.name,
              `UPDATE ${this.table} SET doc = ${expr} FROM (SELECT _id AS id, doc AS old FROM ${this.table} WHERE ${sql.where}${limit ? ' LIMIT 1' : ''} FOR UPDATE) AS m
               WHERE _id = m.id RETURNING doc, doc IS DISTINCT FROM m.old AS changed`,
              params.values,
              this.engine.mayRefuse(this.name, 'update', Object.values(update).flatMap((fields) => Object.keys(fields as object))),
            );
            return { result: { matched: rows.length, modified: rows.filter((r) => r.changed).length, upserted: false }, docs: rows.map((r) => r.doc) };
          })
        : await this.writing(() => this.engine.atomic(this.name, (on) => this.updateInProcess(on, filter, update, limit)));
    this.written(done.docs);
    if (done.result.matched > 0 || !upsert) return done;
    const doc = upsertBase(filter);
    applyUpdate(doc, update);
    doc._id ??= newId();
    try {
      await this.insert(doc as NewDoc<T>);
    } catch (err) {
      // Another upsert of the same document (a second handler of one event, another replica) inserted
      // it between this one's update and insert: update that one, as SQLite's one-step upsert would.
      if (!(err instanceof DuplicateKeyError)) throw err;
      const again = await this.update(filter, update, limit, false);
      if (again.result.matched === 0) throw err;
      return again;
    }
    return { result: { matched: 0, modified: 0, upserted: true }, docs: [doc as T] };
  }

  /** Read under a row lock, apply the update with mingo, write back: in one transaction, so no concurrent change is lost. */
  private async updateInProcess(on: Queryable, filter: Filter, update: Update, limit: 1 | undefined) {
    const found = await this.lockedMatches(on, filter, limit);
    let modified = 0;
    for (const doc of found) {
      const id = doc._id;
      if (!applyUpdate(doc, update)) continue;
      doc._id = id;
      await this.engine.learnShapes(this.name, doc);
      const search = this.textFields.length ? `, search = $3::tsvector` : '';
      await on.query({ text: `UPDATE ${this.table} SET doc = $2::jsonb${search} WHERE _id = $1`, values: [id, toJsonb(doc), ...(search ? [this.engine.searchOf(this.name, doc)] : [])] });
      modified++;
    }
    return { result: { matched: found.length, modified, upserted: false }, docs: found as T[] };
  }

  /** The matching documents, locked until the transaction ends; at most `limit`. */
  private async lockedMatches(on: Queryable, filter: Filter, limit: number | undefined): Promise<Row[]> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const select = (extra: string) => on.query<{ doc: Row }>({ text: `SELECT doc FROM ${this.table} WHERE ${sql.where}${extra} FOR UPDATE`, values: params.values });
    try {
      if (sql.complete) return (await select(limit ? ` LIMIT ${limit}` : '')).rows.map((r) => r.doc);
      const query = new (mingo().Query)(filter);
      return (await select('')).rows
        .map((r) => r.doc)
        .filter((d) => query.test(d))
        .slice(0, limit);
    } catch (err) {
      if (isMissingTable(err)) return [];
      throw err;
    }
  }

  private async delete(filter: Filter, limit: 1 | undefined): Promise<number> {
    const params = new Params();
    const sql = this.sqlFilter(filter, params);
    const ids = await this.writing(async () => {
      if (sql.complete) {
        const where = limit ? `_id IN (SELECT _id FROM ${this.table} WHERE ${sql.where} LIMIT 1 FOR UPDATE)` : sql.where;
        const rows = await this.engine.write<{ _id: string }>(this.name, `DELETE FROM ${this.table} WHERE ${where} RETURNING _id`, params.values, this.engine.mayRefuse(this.name, 'other'));
        return rows.map((r) => r._id);
      }
      return this.engine.atomic(this.name, async (on) => {
        const matched = (await this.lockedMatches(on, filter, limit)).map((d) => d._id as string);
        if (matched.length === 0) return [];
        return (await on.query<{ _id: string }>({ text: `DELETE FROM ${this.table} WHERE _id = ANY($1::text[]) RETURNING _id`, values: [matched] })).rows.map((r) => r._id);
      });
    });
    this.engine.afterWrite(this.name, (cache) => ids.forEach((id) => cache.forget(id)));
    return ids.length;
  }

  /** Documents this process wrote: forgotten by the cache once committed (with the keys they now hold, see DocCache.written). */
  private written(docs: readonly T[]): void {
    if (docs.length > 0) this.engine.afterWrite(this.name, (cache) => docs.forEach((doc) => cache.written(doc)));
  }

  /** A write; a unique index refusing it becomes DuplicateKeyError; a missing table is created and the write retried. */
  private async writing<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (err) {
      if (isMissingTable(err)) {
        await this.engine.ensureTable(this.name);
        return this.writing(work);
      }
      throw asDuplicate(this.name, err);
    }
  }
}
