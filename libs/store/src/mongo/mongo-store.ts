// Placeholder replaced by the MongoDB adapter (mongoose); see libs/store README.
import { BaseDoc, Collection, CollectionDef, Store } from '../store.port';
import { StoreUnavailableError } from '../store.errors';

export interface MongoStoreOptions {
  url: string;
  dbName: string;
}

export class MongoStore implements Store {
  readonly engine = 'mongo' as const;
  constructor(private readonly options: MongoStoreOptions) {}
  collection<T extends BaseDoc>(_def: CollectionDef<T>): Collection<T> {
    throw new StoreUnavailableError(`MongoDB adapter not built yet (${this.options.dbName})`);
  }
  async open(): Promise<void> {
    throw new StoreUnavailableError('MongoDB adapter not built yet');
  }
  async isHealthy(): Promise<boolean> {
    return false;
  }
  async close(): Promise<void> {}
}
