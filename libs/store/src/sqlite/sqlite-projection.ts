import { Projection } from '../store.port';
import { jsonPath } from './sqlite-filter';
import { decodeDoc } from './sqlite-json';

type Row = Record<string, unknown>;

/**
 * An inclusion projection of top-level fields, done in SQL: each field is read as JSON text
 * (`doc -> path`: NULL when the field is missing, 'null' when it holds null) and only those
 * values are parsed, instead of parsing the whole document and projecting it with mingo. That
 * decode was most of the counter repair's boot time (docs/decisions/store.md). Anything else
 * (exclusions, dotted fields, odd names) returns null and keeps the mingo path, whose MongoDB
 * semantics for those cases are not repeated here.
 */
export interface SqlProjection {
  /** The SELECT list: `_id`, then one column per field. */
  columns: string;
  /** The projected document of one row (the columns as an array). */
  build(row: unknown[]): Row;
}

/** A JSON value's text; a plain string (the usual id or time) without JSON.parse. */
function parseValue(text: string): unknown {
  if (text.charCodeAt(0) === 34 && !text.includes('\\')) return text.slice(1, -1);
  return decodeDoc(text); // revives a stored date too
}

export function toSqlProjection(projection: Projection): SqlProjection | null {
  const fields: string[] = [];
  let withId = true;
  for (const [field, on] of Object.entries(projection)) {
    if (field === '_id') withId = Boolean(on);
    else if (!on || field.includes('.') || field === '__proto__' || jsonPath(field) === null) return null;
    else fields.push(field);
  }
  // `{ _id: 0 }` alone is an exclusion: mingo's. `{ _id: 1 }` is the ids alone.
  if (fields.length === 0) return withId ? { columns: '_id', build: (row) => ({ _id: row[0] }) } : null;
  return {
    columns: ['_id', ...fields.map((f) => `doc -> '${jsonPath(f)}'`)].join(', '),
    build(row) {
      const doc: Row = withId ? { _id: row[0] } : {};
      for (let i = 0; i < fields.length; i++) {
        const text = row[i + 1];
        if (text !== null) doc[fields[i]] = parseValue(text as string); // missing: left out, as in MongoDB
      }
      return doc;
    },
  };
}
