import mongoose, { Connection, Model, Schema } from 'mongoose';
import { flipInSteps } from '../flip-in-steps';
import { newId } from '../ids';
import { amountsById } from '../store-documents';
import { DuplicateKeyError, redactUrl, StoreUnavailableError } from '../store.errors';
import {
  BaseDoc,
  Collection,
  CountedIn,
  CollectionDef,
  Filter,
  FindOptions,
  Flipped,
  GroupKey,
  Increment,
  NewDoc,
  SearchOptions,
  Store,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../store.port';
import { searchWords } from '../text-search';

export interface MongoStoreOptions {
  url: string;
  dbName: string;
  /** How long open() waits for a server before giving up; 5000 by default. */
  serverSelectionTimeoutMS?: number;
}

type Raw = Record<string, unknown>;
type RawModel = Model<Raw>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Error code 11000 (11001 on old servers) is a unique index refusing a write; other errors pass through. */
function asDuplicate(collection: string, err: unknown): unknown {
  if (!isRecord(err) || (err.code !== 11000 && err.code !== 11001)) return err;
  return new DuplicateKeyError(collection, isRecord(err.keyValue) ? JSON.stringify(err.keyValue) : messageOf(err));
}

/** Builds the mongoose schema from the same declarations NeDB uses. */
function schemaOf(def: CollectionDef<BaseDoc>): Schema<Raw> {
  const schema = new Schema<Raw>(
    { _id: { type: String, default: newId } },
    {
      // Documents are typed by the service, not by mongoose: store every field as given.
      strict: false,
      strictQuery: false,
      versionKey: false,
      // Keep empty objects, as NeDB does.
      minimize: false,
      // open() builds the indexes, where a failure stops the boot; a collection appears with its first index or write.
      autoIndex: false,
      autoCreate: false,
    },
  );
  for (const { fields, orderBy, unique, sparse } of def.indexes) {
    // Options only when set: syncIndexes reads `unique: false` against a server index without
    // `unique` as a difference, and would rebuild the index at every boot.
    schema.index({ ...fields, ...orderBy }, { ...(unique && { unique }), ...(sparse && { sparse }) });
  }
  // Language 'none': no stemming or stop words, so a word matches whole as on SQLite; a version 3
  // text index already folds case and diacritics (İ and ş included; ı is the one it keeps apart).
  if (def.text?.length) schema.index(Object.fromEntries(def.text.map((f) => [f, 'text'])), { default_language: 'none', name: 'text_search' });
  return schema;
}

/** Letters as they may be stored for each folded letter a prefix holds (foldText's inverse, for a regex). */
const FOLDED_VARIANTS: Record<string, string> = {
  a: 'aâàáäãå',
  c: 'cçćč',
  e: 'eéèêë',
  g: 'gğ',
  i: 'iıìíîïİI',
  n: 'nñ',
  o: 'oöóòôõ',
  s: 'sşśš',
  u: 'uüúùû',
};

/** A regex for a folded word at the start of a word, matching its accented and Turkish spellings in any case. */
function prefixPattern(folded: string): RegExp {
  const letters = [...folded].map((c) => (FOLDED_VARIANTS[c] ? `[${FOLDED_VARIANTS[c]}]` : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`(^|[^\\p{L}\\p{N}])${letters.join('')}`, 'iu');
}

class MongoCollection<T extends BaseDoc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly model: RawModel,
    private readonly textFields: readonly string[] = [],
  ) {}

  async insert(doc: NewDoc<T>): Promise<T> {
    const [created] = await this.insertMany([doc]);
    return created;
  }

  async insertMany(docs: NewDoc<T>[]): Promise<T[]> {
    if (docs.length === 0) return [];
    try {
      const created = await this.model.insertMany(docs.map((d) => ({ ...d, _id: d._id ?? newId() })));
      return created.map((d) => d.toObject() as unknown as T);
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  findById(id: string): Promise<T | null> {
    return this.findOne({ _id: id });
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    const query = this.model.findOne(filter, options.projection);
    if (options.sort) query.sort(options.sort);
    return (await query.lean().exec()) as unknown as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const query = this.model.find(filter, options.projection);
    if (options.sort) query.sort(options.sort);
    if (options.skip) query.skip(options.skip);
    if (options.limit) query.limit(options.limit);
    return (await query.lean().exec()) as unknown as T[];
  }

  count(filter: Filter): Promise<number> {
    return this.model.countDocuments(filter).exec();
  }

  async countBy(filter: Filter, field: string): Promise<Map<GroupKey, number>> {
    // `$field` of a missing field is null to $group, as the port wants.
    const groups = await this.model.aggregate<{ _id: GroupKey; n: number }>([{ $match: filter }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]).exec();
    return new Map(groups.map((g) => [g._id, g.n]));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    try {
      // On upsert, mongoose's setDefaultsOnInsert adds `$setOnInsert: { _id: newId() }`.
      const res = await this.model.updateOne(filter, update, { upsert: options.upsert ?? false }).exec();
      return { matched: res.matchedCount, modified: res.modifiedCount, upserted: res.upsertedCount > 0 };
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    try {
      const res = await this.model.updateMany(filter, update).exec();
      return { matched: res.matchedCount, modified: res.modifiedCount, upserted: false };
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  /** One bulkWrite of an updateOne per document: one round trip. */
  async incrementEach(amounts: readonly Increment[]): Promise<number> {
    const byId = amountsById(amounts);
    if (byId.size === 0) return 0;
    try {
      // Raw documents type every field `unknown`, which mongodb's typings refuse to `$inc`.
      const ops = [...byId].map(([id, inc]) => ({ updateOne: { filter: { _id: id }, update: { $inc: inc } } })) as mongoose.AnyBulkWriteOperation<Raw>[];
      const res = await this.model.bulkWrite(ops, { ordered: false });
      return res.matchedCount;
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<T | null> {
    try {
      const query = this.model.findOneAndUpdate(filter, update, { new: true, upsert: options.upsert ?? false });
      return (await query.lean().exec()) as unknown as T | null;
    } catch (err) {
      throw asDuplicate(this.name, err);
    }
  }

  async search(words: string, filter: Filter, options: SearchOptions = {}): Promise<T[]> {
    const terms = searchWords(words);
    if (terms.length === 0) return [];
    const wanted = (options.skip ?? 0) + (options.limit ?? 0);
    // Each word quoted: $text then wants every one of them, as FTS5 does with its implicit AND.
    const text = (ws: string[]) => ({ $text: { $search: ws.map((w) => `"${w}"`).join(' '), $language: 'none' } });
    const ranked = this.model.find({ $and: [filter, text(terms)] }, { _score: { $meta: 'textScore' } }).sort({ _score: { $meta: 'textScore' }, _id: 1 });
    // $text has no prefix search: the last word as a prefix is a regex on the text fields, after the ranked whole-word matches
    const last = prefixPattern(terms[terms.length - 1]);
    const earlier = terms.slice(0, -1);
    const prefixed = this.model
      .find({ $and: [filter, ...(earlier.length ? [text(earlier)] : []), { $or: this.textFields.map((f) => ({ [f]: { $regex: last } })) }] })
      .sort({ _id: 1 });
    if (wanted) {
      ranked.limit(wanted);
      prefixed.limit(wanted);
    }
    const [whole, partial] = (await Promise.all([ranked.lean().exec(), prefixed.lean().exec()])) as unknown as (T & { _score?: number })[][];
    const seen = new Set(whole.map((d) => d._id));
    const merged = [...whole, ...partial.filter((d) => !seen.has(d._id))].map(({ _score, ...doc }) => doc as unknown as T);
    return merged.slice(options.skip ?? 0, wanted || undefined);
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.model.deleteOne(filter).exec()).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.model.deleteMany(filter).exec()).deletedCount;
  }

  /** No transactions here: written at once. */
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
}

/** The production engine: one mongoose connection per store, one model per declared collection. */
export class MongoStore implements Store {
  readonly engine = 'mongo' as const;
  // Created unopened so services can take their collections before open() (constructor injection).
  private readonly conn: Connection = mongoose.createConnection();

  constructor(private readonly options: MongoStoreOptions) {}

  collection<T extends BaseDoc>(def: CollectionDef<T>): Collection<T> {
    return new MongoCollection<T>(def.name, this.model(def), def.text ?? []);
  }

  async open(defs: readonly CollectionDef<BaseDoc>[]): Promise<void> {
    const { url, dbName } = this.options;
    try {
      await this.conn.openUri(url, {
        dbName,
        serverSelectionTimeoutMS: this.options.serverSelectionTimeoutMS ?? 5000,
      });
    } catch (err) {
      await this.conn.close().catch(() => undefined);
      throw new StoreUnavailableError(`MongoDB is unreachable at ${redactUrl(url)} (database ${dbName}): ${messageOf(err)}`);
    }
    for (const def of defs) {
      try {
        // syncIndexes also drops indexes no longer declared: the declarations are the truth.
        // Building an index creates the collection; one without indexes appears on its first write.
        await this.model(def).syncIndexes();
      } catch (err) {
        throw new StoreUnavailableError(`Cannot build the indexes of ${dbName}.${def.name}: ${messageOf(err)}`);
      }
    }
  }

  async isHealthy(): Promise<boolean> {
    const db = this.conn.db;
    if (this.conn.readyState !== mongoose.ConnectionStates.connected || !db) return false;
    try {
      return (await db.admin().ping()).ok === 1;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  private model(def: CollectionDef<BaseDoc>): RawModel {
    const existing = this.conn.models[def.name] as RawModel | undefined;
    return existing ?? this.conn.model<Raw>(def.name, schemaOf(def), def.name);
  }
}
