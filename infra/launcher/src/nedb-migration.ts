import { join } from 'node:path';
import { importNedbFolder, NEDB_IMPORTED_DIR, serviceDataFile } from '@app/store';

export interface NedbMigration {
  services: string[];
  collections: number;
  documents: number;
}

/**
 * Data folders written by releases before SQLite hold NeDB files (`<service>/<collection>.db`).
 * Each service's files are imported into its SQLite file once and moved to `nedb-imported/`;
 * one line says so. Runs before any service opens its store (services of other processes too).
 */
export async function migrateNedbData(dataDir: string, services: readonly string[]): Promise<NedbMigration | null> {
  if (dataDir === ':memory:') return null;
  const done: NedbMigration = { services: [], collections: 0, documents: 0 };
  for (const service of services) {
    const imported = await importNedbFolder(join(dataDir, service), serviceDataFile(dataDir, service));
    if (!imported) continue;
    done.services.push(service);
    done.collections += imported.collections;
    done.documents += imported.documents;
  }
  if (done.services.length === 0) return null;
  process.stdout.write(
    `  Imported NeDB data into SQLite: ${done.documents} documents in ${done.collections} collections of ${done.services.length} services; ` +
      `the old files are in ${join(dataDir, '<service>', NEDB_IMPORTED_DIR)}\n`,
  );
  return done;
}
