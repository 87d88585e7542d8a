import Datastore from '@seald-io/nedb';
import { mkdirSync } from 'node:fs';
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
  NewDoc,
  Store,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../store.port';

export interface NedbStoreOptions {
  /** Folder for this service's data files; absent means in memory only (fast tests). */
  dir?: string;
  /** NeDB appends every change; compaction rewrites the file. */
  compactEveryMs?: number;
}

class Db extends Datastore<Record<string, unknown>> {
  // NeDB's own ids (16 random chars) would only appear on upserts; ours match every other
  // engine's and stay time-ordered. Overrides an internal hook of @seald-io/nedb 4.
  _createNewId(): string {
    return newId();
  }
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
      for (const index of def.indexes) {
        const fields = Object.keys(index.fields);
        await db.ensureIndexAsync({
          fieldName: fields.length === 1 ? fields[0] : fields,
          unique: index.unique ?? false,
          sparse: index.sparse ?? false,
        });
      }
      if (this.options.dir) db.setAutocompactionInterval(this.options.compactEveryMs ?? 10 * 60_000);
    }
    this.opened = true;
  }

  async isHealthy(): Promise<boolean> {
    return this.opened;
  }

  async close(): Promise<void> {
    for (const db of this.dbs.values()) {
      db.stopAutocompaction();
      if (this.options.dir) await db.compactDatafileAsync();
    }
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
