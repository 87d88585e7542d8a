import { createHash } from 'node:crypto';
import { IndexDef } from '../store.port';
import { jsonPath, valueSql } from './sqlite-filter';

export interface SqliteIndex {
  name: string;
  sql: string;
}

/** Prefix of the indexes this adapter owns: any other `ix_` index of a table was once declared and is dropped. */
export const INDEX_PREFIX = 'ix_';

export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * One expression index per declaration: its `fields`, then its `orderBy` fields, so a page sorted
 * by them is read in index order, then the key fields' JSON types. `unique` is a UNIQUE index;
 * `sparse` a partial index over documents that have the field (SQLite's UNIQUE already lets
 * several NULLs through).
 * The name hashes the definition, so a changed declaration is a new index and the old one goes.
 */
export function sqliteIndex(table: string, def: IndexDef): SqliteIndex {
  const columns = Object.entries({ ...def.fields, ...def.orderBy }).map(([field, dir]) => {
    const path = jsonPath(field);
    if (path === null) throw new Error(`Index field ${table}.${field} cannot be a JSON path`);
    return { sql: valueSql(field, path), dir: dir === -1 ? 'DESC' : 'ASC', key: field in def.fields };
  });
  const keys = columns.filter((c) => c.key).map((c) => `${c.sql} IS NOT NULL`);
  // Each key field's JSON type too (not in a unique index: it would take part in uniqueness): a
  // boolean or null test (`is_read: false` is a value and a type check) is then answered from the
  // index, never by parsing every matching document.
  const types = Object.keys(def.unique ? {} : def.fields)
    .filter((field) => field !== '_id')
    .map((field) => ({ sql: `json_type(doc, '${jsonPath(field)}')`, dir: 'ASC', key: false }));
  columns.push(...types);
  const where = def.sparse ? ` WHERE ${keys.join(' OR ')}` : '';
  const body = `ON ${quoteName(table)} (${columns.map((c) => `${c.sql} ${c.dir}`).join(', ')})${where}`;
  const kind = def.unique ? 'UNIQUE INDEX' : 'INDEX';
  const name = `${INDEX_PREFIX}${table}_${createHash('sha1').update(kind + body).digest('hex').slice(0, 12)}`;
  return { name, sql: `CREATE ${kind} IF NOT EXISTS ${quoteName(name)} ${body}` };
}
