import { createHash } from 'node:crypto';
import { IndexDef } from '../store.port';
import { fieldSql, orderSql } from './postgres-filter';

/** Prefix of the indexes this adapter owns: any other `ix_` index of a table was once declared and is dropped. */
export const INDEX_PREFIX = 'ix_';

export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export interface PgIndex {
  name: string;
  sql: string;
}

/** A name under PostgreSQL's 63 bytes whatever the table: the prefix and a hash of the definition. */
function indexName(table: string, body: string): string {
  return `${INDEX_PREFIX}${createHash('sha1').update(`${table}\n${body}`).digest('hex').slice(0, 24)}`;
}

/**
 * One expression index per declaration, as on SQLite: its `fields`, then its `orderBy` fields
 * (with the NULLS order `find` sorts by, so a page is read in index order). `unique` is a UNIQUE
 * index; `sparse` a partial index over documents that have one of the fields. The name hashes the
 * definition, so a changed declaration is a new index and the old one goes.
 */
export function pgIndex(schema: string, table: string, def: IndexDef): PgIndex {
  const columns = Object.entries({ ...def.fields, ...def.orderBy }).map(([field, dir]) => {
    const sql = fieldSql(field);
    if (sql === null) throw new Error(`Index field ${table}.${field} cannot be a jsonb path`);
    return { sql, dir: orderSql(dir), key: field in def.fields };
  });
  const keys = columns.filter((c) => c.key).map((c) => `${c.sql} IS NOT NULL`);
  const where = def.sparse ? ` WHERE ${keys.join(' OR ')}` : '';
  const kind = def.unique ? 'UNIQUE INDEX' : 'INDEX';
  const body = `(${columns.map((c) => `${c.sql} ${c.dir}`).join(', ')})${where}`;
  const name = indexName(table, kind + body);
  return { name, sql: `CREATE ${kind} IF NOT EXISTS ${quoteName(name)} ON ${quoteName(schema)}.${quoteName(table)} ${body}` };
}

/** The GIN index of a collection's `search` column. */
export function pgTextIndex(schema: string, table: string): PgIndex {
  const name = indexName(table, 'gin(search)');
  return { name, sql: `CREATE INDEX IF NOT EXISTS ${quoteName(name)} ON ${quoteName(schema)}.${quoteName(table)} USING gin (search)` };
}
