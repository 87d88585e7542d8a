import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { foldText } from '../text-search';
import { jsonPath } from './sqlite-filter';
import { quoteName } from './sqlite-indexes';

/** The SQL function the triggers fold indexed text with: the same `foldText` queries go through. */
export const FOLD_FUNCTION = 'search_fold';

/** Prefix of a collection's full-text table; any other one of the collection was once declared and is dropped. */
const TEXT_SUFFIX = '__text_';

export function registerFold(db: Database): void {
  db.function(FOLD_FUNCTION, { deterministic: true, varargs: true }, (...values: unknown[]) =>
    foldText(values.filter((v): v is string => typeof v === 'string').join(' ')),
  );
}

/** The FTS5 table of a collection's text fields: its name hashes the fields, so new fields are a new table. */
export function textTableOf(collection: string, fields: readonly string[]): string {
  return `${collection}${TEXT_SUFFIX}${createHash('sha1').update(fields.join('\n')).digest('hex').slice(0, 12)}`;
}

/**
 * Builds the collection's FTS5 table (rowid = the document row's rowid, holding the folded text of
 * its fields) and the triggers that keep it in step with every insert, update and delete, then fills
 * it from the rows already there. Drops a table (and its triggers) built for other fields.
 * Call inside a transaction, after the collection's table exists.
 */
export function ensureTextIndex(db: Database, collection: string, fields: readonly string[]): void {
  const name = textTableOf(collection, fields);
  const stale = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' AND name LIKE ? ESCAPE '\\' AND name != ?`)
    .pluck()
    .all(`${collection.replace(/[\\%_]/g, (c) => `\\${c}`)}${TEXT_SUFFIX.replace(/_/g, '\\_')}%`, name) as string[];
  for (const table of stale) dropTextIndex(db, table);
  const fts = quoteName(name);
  const docs = quoteName(collection);
  const extracts = (row: string) =>
    fields.map((f) => {
      const path = jsonPath(f);
      if (path === null) throw new Error(`Text field ${collection}.${f} cannot be a JSON path`);
      return `json_extract(${row}doc, '${path}')`;
    });
  const folded = (row: string) => `${FOLD_FUNCTION}(${extracts(row).join(', ')})`;
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(name);
  if (!exists) {
    db.exec(`CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'unicode61 remove_diacritics 2')`);
    db.exec(`INSERT INTO ${fts} (rowid, text) SELECT rowid, ${folded('')} FROM ${docs}`);
    db.exec(`CREATE TRIGGER ${quoteName(`${name}_ai`)} AFTER INSERT ON ${docs} BEGIN INSERT INTO ${fts} (rowid, text) VALUES (new.rowid, ${folded('new.')}); END`);
    db.exec(`CREATE TRIGGER ${quoteName(`${name}_ad`)} AFTER DELETE ON ${docs} BEGIN DELETE FROM ${fts} WHERE rowid = old.rowid; END`);
  }
  // Only an update that changes an indexed field re-indexes the row: a counter bump (a like, a
  // comment) otherwise rewrote the row's FTS entry and its segments in every commit. Made again at
  // each open, so a database whose trigger predates the WHEN gets it.
  const changed = extracts('old.').map((before, i) => `${before} IS NOT ${extracts('new.')[i]}`).join(' OR ');
  db.exec(`DROP TRIGGER IF EXISTS ${quoteName(`${name}_au`)}`);
  db.exec(
    `CREATE TRIGGER ${quoteName(`${name}_au`)} AFTER UPDATE ON ${docs} WHEN ${changed} BEGIN DELETE FROM ${fts} WHERE rowid = old.rowid; INSERT INTO ${fts} (rowid, text) VALUES (new.rowid, ${folded('new.')}); END`,
  );
}

function dropTextIndex(db: Database, table: string): void {
  for (const suffix of ['_ai', '_ad', '_au']) db.exec(`DROP TRIGGER IF EXISTS ${quoteName(table + suffix)}`);
  db.exec(`DROP TABLE IF EXISTS ${quoteName(table)}`);
}

/**
 * An FTS5 query holding every word: each quoted (a phrase of one word), so no word is read as an
 * operator, and the last one a prefix (`"cof"*` finds coffee: search as you type).
 */
export function ftsQuery(words: readonly string[]): string {
  return words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
}
