import { Update } from '../store.port';
import { Params } from './postgres-filter';
import { toJsonb } from './postgres-json';

type Row = Record<string, unknown>;

const isScalar = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A value that `doc || jsonb` stores exactly as read-apply-write would: scalars, dates, and plain
 * objects and arrays of them (a whole `last_message` replaced). Keys starting with `$` (operators,
 * or the `$$date` spelling itself) and anything else (undefined, class instances) go the long way.
 */
const isPlainValue = (v: unknown): boolean => {
  if (isScalar(v) || v instanceof Date) return true;
  if (Array.isArray(v)) return v.every(isPlainValue);
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(v).every(([key, inner]) => !key.startsWith('$') && isPlainValue(inner));
};

/**
 * The common write (`$set` of a plain value, `$unset`, `$inc` by a number, on top-level fields) as
 * one SQL expression over the stored `doc`, so it runs as a single UPDATE: the database applies a
 * concurrent `$inc` to the latest row, one statement and no read into the process. A `$set` of an
 * object or array replaces the field whole, as MongoDB's does; the caller records its array fields
 * (learnShapes) before the write. Null for anything else (dotted paths, whose missing parents
 * jsonb_set would not create, `$push`...): the caller reads, applies the update with
 * mingo (applyUpdate) and writes back under a row lock. `textFields`, when one is touched, also
 * send the write that way, since the folded search vector is computed in JavaScript.
 *
 * `$inc` casts the stored value to numeric: a string or null there fails the statement, as
 * MongoDB refuses to increment a non-number.
 */
export function plainUpdateSql(update: Update, params: Params, textFields: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const [op, fields] of Object.entries(update)) {
    if (!['$set', '$unset', '$inc'].includes(op) || typeof fields !== 'object' || fields === null) return null;
    for (const [field, operand] of Object.entries(fields as Row)) {
      if (field === '' || field === '_id' || field.includes('.') || field.startsWith('$') || seen.has(field)) return null;
      if (textFields.some((t) => t === field || t.startsWith(`${field}.`))) return null;
      if (op === '$set' && !isPlainValue(operand)) return null;
      if (op === '$inc' && !(typeof operand === 'number' && Number.isFinite(operand))) return null;
      seen.add(field);
    }
  }
  if (seen.size === 0) return null;
  let expr = 'doc';
  const set = update.$set as Row | undefined;
  if (set && Object.keys(set).length > 0) expr = `(${expr} || ${params.add(toJsonb(set))}::jsonb)`;
  const unset = Object.keys((update.$unset as Row | undefined) ?? {});
  if (unset.length > 0) expr = `(${expr} - ${params.add(unset)}::text[])`;
  for (const [field, by] of Object.entries((update.$inc as Row | undefined) ?? {})) {
    const name = params.add(field);
    expr = `jsonb_set(${expr}, ARRAY[${name}::text], to_jsonb(COALESCE((doc -> ${name}::text)::numeric, 0) + ${params.add(by)}::numeric))`;
  }
  return expr;
}
