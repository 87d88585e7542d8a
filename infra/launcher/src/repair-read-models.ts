import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { inboxCollection, outboxCollection } from '@app/bus';
import { BaseDoc, CollectionDef, createStore, serviceDataFile, Store } from '@app/store';
import { repairReadModels } from './read-model-repair';
import { SERVICE_CATALOGUE } from './service-catalogue';
import { option } from './command-option';

/**
 * `npm run repair:read-models -- [--service reviews] [--sample 200 | --rebuild] [--data-dir .data]`:
 * compares each derived view with a recomputation from its owner's rows (a sample of members by
 * default), and with --rebuild puts every difference right (stop the services first). The stores
 * are the ones the services use: SQLite under the data dir, or STORE=postgres with POSTGRES_URL.
 * Exit 0 when every view matches (or was rebuilt), 1 when a check found differences, 2 on a usage error.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const dataDir = resolve(option(argv, 'data-dir') ?? process.env.DATA_DIR ?? '.data');
  const service = option(argv, 'service');
  const rebuild = argv.includes('--rebuild');
  const sample = Number(option(argv, 'sample') ?? 200);
  if (service && !SERVICE_CATALOGUE.some((e) => e.definition.name === service)) {
    process.stderr.write(`repair: no service named ${service}\n`);
    process.exit(2);
  }
  const engine = process.env.STORE === 'postgres' ? 'postgres' : 'sqlite';
  const stores = new Map<string, Store>();
  try {
    for (const { definition } of SERVICE_CATALOGUE) {
      if (engine === 'sqlite' && !existsSync(serviceDataFile(dataDir, definition.name))) continue;
      const store = createStore(definition.name, { engine, dataDir, postgresUrl: process.env.POSTGRES_URL });
      await store.open([...definition.collections, outboxCollection, inboxCollection] as CollectionDef<BaseDoc>[]);
      stores.set(definition.name, store);
    }
    const reports = await repairReadModels({ stores, service, mode: rebuild ? 'rebuild' : 'check', sample: rebuild ? undefined : sample });
    const differing = reports.filter((r) => r.missing + r.extra > 0 && !r.repaired);
    process.exitCode = differing.length === 0 ? 0 : 1;
  } finally {
    for (const store of stores.values()) await store.close();
  }
}

main().catch((err: Error) => {
  process.stderr.write(`repair: ${err.message}\n`);
  process.exit(1);
});
