import { join } from 'node:path';
import type { PostgresPoolSettings } from './postgres/postgres-store';
import { SqliteStore, sqliteFileOf } from './sqlite/sqlite-store';
import { StoreUnavailableError } from './store.errors';
import { Store } from './store.port';

export interface StoreSettings {
  /** sqlite (embedded, default), postgres or mongo. */
  engine: 'sqlite' | 'mongo' | 'postgres';
  /** Data root; each service gets `<dataDir>/<service>/<service>.sqlite`. ':memory:' keeps everything in memory. */
  dataDir: string;
  mongoUrl?: string;
  /** postgres://user:password@host:5432/database; each service keeps its tables in a schema named after it. */
  postgresUrl?: string;
  postgresPool?: PostgresPoolSettings;
}

/** Where a service's SQLite file lives under the data root (the NeDB import and backups need it too). */
export function serviceDataFile(dataDir: string, service: string): string {
  return sqliteFileOf(join(dataDir, service), service);
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
  if (settings.engine === 'postgres') {
    if (!settings.postgresUrl) throw new StoreUnavailableError('STORE=postgres needs POSTGRES_URL (for example postgres://squadreviews@localhost:5432/squadreviews)');
    // Loaded lazily, as mongoose is: the embedded profile never loads pg.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { PostgresStore } = require('./postgres/postgres-store') as typeof import('./postgres/postgres-store');
    return new PostgresStore({ url: settings.postgresUrl, schema: service, pool: settings.postgresPool });
  }
  return new SqliteStore({ file: settings.dataDir === ':memory:' ? undefined : serviceDataFile(settings.dataDir, service) });
}
