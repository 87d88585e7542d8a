import { Pool } from 'pg';
import { BaseDoc, CollectionDef, Filter } from '@app/store';

/** What the test reads of a service's store: documents matching a filter, counted, or by id. */
export interface StoreReader {
  collection<T extends BaseDoc>(def: CollectionDef<T>): ReadCollection<T>;
  close(): Promise<void>;
}

export interface ReadCollection<T extends BaseDoc> {
  find(filter: Filter): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  findById(id: string): Promise<T | null>;
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Plain SELECTs on a service's PostgreSQL schema. Not the store adapter: its open() takes the
 * schema's DDL lock and registers a session, which would make the test a participant in what it
 * observes. Filters are the few the test uses (string equality, $in of strings, $or of those); any
 * other throws rather than read something else. A pool, so a PostgreSQL restart only costs a retry.
 */
export class PostgresReader implements StoreReader {
  private readonly pool: Pool;

  constructor(
    url: string,
    private readonly schema: string,
  ) {
    this.pool = new Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5000 });
    this.pool.on('error', () => undefined);
  }

  collection<T extends BaseDoc>(def: CollectionDef<T>): ReadCollection<T> {
    const table = `${quoteName(this.schema)}.${quoteName(def.name)}`;
    const select = async (columns: string, filter: Filter) => {
      const values: unknown[] = [];
      return (await this.pool.query(`SELECT ${columns} FROM ${table} WHERE ${where(filter, values)}`, values)).rows;
    };
    return {
      find: async (filter) => (await select(`doc || jsonb_build_object('_id', _id) AS doc`, filter)).map((r) => r.doc as T),
      count: async (filter) => Number((await select('count(*) AS n', filter))[0].n),
      findById: async (id) => ((await select(`doc || jsonb_build_object('_id', _id) AS doc`, { _id: id }))[0]?.doc as T | undefined) ?? null,
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

function where(filter: Filter, values: unknown[]): string {
  const terms = Object.entries(filter).map(([key, value]) => {
    if (key === '$or' && Array.isArray(value)) return `(${value.map((f: Filter) => where(f, values)).join(' OR ')})`;
    if (key.startsWith('$') || key.includes('.')) throw new Error(`PostgresReader: unsupported key ${key}`);
    const field = key === '_id' ? '_id' : `doc ->> ${literal(key)}`;
    if (typeof value === 'string') {
      values.push(value);
      return `${field} = $${values.length}`;
    }
    const list = (value as { $in?: unknown } | null)?.$in;
    if (Array.isArray(list) && Object.keys(value as object).length === 1 && list.every((v) => typeof v === 'string')) {
      values.push(list);
      return `${field} = ANY($${values.length}::text[])`;
    }
    throw new Error(`PostgresReader: unsupported filter on ${key}: ${JSON.stringify(value)}`);
  });
  return terms.length ? terms.join(' AND ') : 'true';
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;
