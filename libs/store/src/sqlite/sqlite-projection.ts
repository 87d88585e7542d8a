import { Projection } from '../store.port';
import { jsonPath } from './sqlite-filter';
import { decodeDoc } from './sqlite-json';

type Row = Record<string, unknown>;

/**
 * An inclusion projection of top-level fields, done in SQL: each field is read as JSON text
 * (`doc -> path`, NULL when the field is missing, 'null' when it holds null) and only those
 * pieces are put together and parsed, instead of parsing the whole document and projecting it
 * with mingo. That decode was most of the counter repair's boot time (docs/decisions/store.md).
 * Anything else (exclusions, dotted fields, odd names) returns null and keeps the mingo path,
 * whose MongoDB semantics for those cases are not repeated here.
 */
export interface SqlProjection {
  /** The SELECT list: `_id` then one column per field (c0, c1...). */
  columns: string;
  /** The projected document of one row. */
  build(row: Row): Row;
}

export function toSqlProjection(projection: Projection): SqlProjection | null {
  const entries = Object.entries(projection);
  const fields: string[] = [];
  let withId = true;
  for (const [field, on] of entries) {
    if (field === '_id') {
      withId = Boolean(on);
      continue;
    }
    if (!on || field.includes('.') || jsonPath(field) === null) return null;
    fields.push(field);
  }
  // `{ _id: 0 }` alone is an exclusion; `{}` is no projection at all: both are mingo's.
  if (fields.length === 0) return null;
  const columns = ['_id', ...fields.map((f, i) => `doc -> '${jsonPath(f)}' AS c${i}`)].join(', ');
  // Field names passed jsonPath's pattern: they need no escaping inside the JSON text.
  const keys = fields.map((f) => `"${f}":`);
  return {
    columns,
    build(row) {
      let text = withId ? `{"_id":${JSON.stringify(row._id)}` : '{';
      for (let i = 0; i < keys.length; i++) {
        const value = row[`c${i}`];
        if (value === null) continue; // missing: left out, as MongoDB does
        text += (text.length > 1 ? ',' : '') + keys[i] + (value as string);
      }
      return decodeDoc<Row>(text + '}');
    },
  };
}
