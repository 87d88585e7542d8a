import { existsSync } from 'node:fs';
import { inboxCollection, outboxCollection } from '@app/bus';
import { BaseDoc, CollectionDef, createStore, defineCollection, PostgresPoolSettings, redactUrl, serviceDataFile, SqliteExport } from '@app/store';
import { SERVICE_CATALOGUE } from './service-catalogue';

/** Documents read from SQLite and written to PostgreSQL per round: memory stays flat however large a collection is. */
const BATCH = 500;

export interface CollectionCopy {
  service: string;
  collection: string;
  /** Documents in the SQLite file. */
  source: number;
  /** Written by this run. */
  copied: number;
  /** Already in PostgreSQL (an earlier run, complete or interrupted). */
  present: number;
  /** Documents in PostgreSQL after the run. */
  target: number;
}

export interface PostgresMigration {
  collections: CollectionCopy[];
  /** Collections whose counts differ after the copy. */
  mismatched: CollectionCopy[];
}

export interface PostgresMigrationOptions {
  dataDir: string;
  postgresUrl: string;
  pool?: PostgresPoolSettings;
  /** One line per collection and the summary; stdout by default. */
  log?: (line: string) => void;
}

/**
 * `npm run migrate:postgres`: copies an embedded data folder (one SQLite file per service) into
 * PostgreSQL, each service into its own schema, built with the service's declared indexes and
 * search columns first. Documents keep their `_id`; a document already there is left as it is, so
 * the copy can be interrupted and run again (it resumes) and a second run copies nothing. The
 * services must be stopped meanwhile. At the end every collection's count in PostgreSQL is
 * compared with the SQLite file's: a difference is reported (and the command fails).
 */
export async function migrateToPostgres(options: PostgresMigrationOptions): Promise<PostgresMigration> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  log(`Copying ${options.dataDir} into PostgreSQL at ${redactUrl(options.postgresUrl)}`);
  const collections: CollectionCopy[] = [];
  for (const { definition } of SERVICE_CATALOGUE) {
    const file = serviceDataFile(options.dataDir, definition.name);
    if (!existsSync(file)) {
      log(`${definition.name}: no ${file}, nothing to copy`);
      continue;
    }
    const declared = [...definition.collections, outboxCollection, inboxCollection] as CollectionDef<BaseDoc>[];
    const source = new SqliteExport(file);
    const store = createStore(definition.name, { engine: 'postgres', dataDir: options.dataDir, postgresUrl: options.postgresUrl, postgresPool: options.pool });
    try {
      await store.open(declared);
      for (const name of source.collections()) {
        const target = store.collection(declared.find((d) => d.name === name) ?? defineCollection(name));
        const copy: CollectionCopy = { service: definition.name, collection: name, source: source.count(name), copied: 0, present: 0, target: 0 };
        for (let after = ''; ; ) {
          const docs = source.page(name, after, BATCH);
          if (docs.length === 0) break;
          const there = new Set((await target.find({ _id: { $in: docs.map((d) => d._id) } }, { projection: { _id: 1 } })).map((d) => d._id));
          const missing = docs.filter((d) => !there.has(d._id));
          await target.insertMany(missing);
          copy.copied += missing.length;
          copy.present += there.size;
          after = docs[docs.length - 1]._id;
        }
        copy.target = await target.count({});
        collections.push(copy);
        log(`${definition.name}.${name}: ${copy.source} in SQLite, ${copy.copied} copied, ${copy.present} already there, ${copy.target} in PostgreSQL`);
      }
    } finally {
      source.close();
      await store.close();
    }
  }
  const mismatched = collections.filter((c) => c.target !== c.source);
  const documents = collections.reduce((n, c) => n + c.source, 0);
  const services = new Set(collections.map((c) => c.service)).size;
  if (mismatched.length === 0) log(`Checked: ${documents} documents in ${collections.length} collections of ${services} services; every count matches.`);
  else log(`Counts differ in ${mismatched.map((c) => `${c.service}.${c.collection} (${c.source} in SQLite, ${c.target} in PostgreSQL)`).join(', ')}`);
  return { collections, mismatched };
}
