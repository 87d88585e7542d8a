import { join } from 'node:path';
import { NedbStore } from './nedb/nedb-store';
import { StoreUnavailableError } from './store.errors';
import { Store } from './store.port';

export interface StoreSettings {
  /** nedb (embedded, default) or mongo. */
  engine: 'nedb' | 'mongo';
  /** NeDB data root; ':memory:' keeps everything in memory. Each service gets its own folder under it. */
  dataDir: string;
  mongoUrl?: string;
}

/** Builds the engine named by the environment (ARCHITECTURE §2). Service code never calls an engine directly. */
export function createStore(service: string, settings: StoreSettings): Store {
  if (settings.engine === 'mongo') {
    if (!settings.mongoUrl) throw new StoreUnavailableError('STORE=mongo needs MONGO_URL (for example mongodb://localhost:27017)');
    // Loaded lazily so the embedded profile never pays for mongoose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MongoStore } = require('./mongo/mongo-store') as typeof import('./mongo/mongo-store');
    return new MongoStore({ url: settings.mongoUrl, dbName: `squadreviews_${service}` });
  }
  return new NedbStore({ dir: settings.dataDir === ':memory:' ? undefined : join(settings.dataDir, service) });
}
