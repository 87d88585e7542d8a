import BetterSqlite3, { Database, Statement } from 'better-sqlite3';
import { SqliteStore } from '@app/store';

/** What a probe saw: top-level commits of SQLite connections, and store operations (reads and writes) of one store. */
export interface StoreProbe {
  commits: number;
  reads: number;
  writes: number;
  reset(): void;
  stop(): void;
}

/**
 * Counts COMMITs (every connection of this process: better-sqlite3 commits with a prepared
 * `COMMIT`, the async transaction with `exec('COMMIT')`) and the operations of `store`, so a
 * spec can assert what a request costs (a savepoint's RELEASE is not a commit).
 */
export function probeStore(store?: SqliteStore): StoreProbe {
  const db: Database = new BetterSqlite3(':memory:');
  const statementProto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Statement;
  db.close();
  const databaseProto = BetterSqlite3.prototype as Database;
  const run = statementProto.run;
  const exec = databaseProto.exec;
  const probe: StoreProbe = {
    commits: 0,
    reads: 0,
    writes: 0,
    reset() {
      probe.commits = probe.reads = probe.writes = 0;
    },
    stop() {
      statementProto.run = run;
      databaseProto.exec = exec;
      if (store && read && write) {
        store.read = read;
        store.write = write;
      }
    },
  };
  statementProto.run = function (this: Statement, ...params: unknown[]) {
    if (this.source === 'COMMIT') probe.commits++;
    return run.apply(this, params as never);
  } as Statement['run'];
  databaseProto.exec = function (this: Database, sql: string) {
    if (/^\s*COMMIT\b/i.test(sql)) probe.commits++;
    return exec.call(this, sql);
  };
  const read = store?.read;
  const write = store?.write;
  if (store && read && write) {
    store.read = <R>(collection: string, work: (db: Database) => R): Promise<R> => {
      probe.reads++;
      return read.call(store, collection, work) as Promise<R>;
    };
    store.write = <R>(work: (db: Database) => R): Promise<R> => {
      probe.writes++;
      return write.call(store, work) as Promise<R>;
    };
  }
  return probe;
}
