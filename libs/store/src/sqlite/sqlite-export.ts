import BetterSqlite3 from 'better-sqlite3';
import { BaseDoc } from '../store.port';
import { decodeDoc } from './sqlite-json';

/**
 * A service's SQLite file read as collections of documents, for copying it into another engine
 * (`npm run migrate:postgres`). Read-only: the file is left exactly as it was.
 */
export class SqliteExport {
  private readonly db: BetterSqlite3.Database;

  constructor(file: string) {
    this.db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  }

  /** The collections: every table shaped `_id, doc` (not the shapes table nor the full-text tables). */
  collections(): string[] {
    const tables = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).pluck().all() as string[];
    return tables.filter((table) => {
      const columns = (this.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).join(',');
      return columns === '_id,doc';
    });
  }

  count(collection: string): number {
    return Number(this.db.prepare(`SELECT count(*) FROM ${quote(collection)}`).pluck().get());
  }

  /** Documents in `_id` order after `after`, at most `limit` of them. */
  page(collection: string, after: string, limit: number): BaseDoc[] {
    const rows = this.db.prepare(`SELECT doc FROM ${quote(collection)} WHERE _id > ? ORDER BY _id LIMIT ?`).pluck().all(after, limit) as string[];
    return rows.map((doc) => decodeDoc<BaseDoc>(doc));
  }

  close(): void {
    this.db.close();
  }
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;
