/**
 * What the SQL engines' filter translators (sqlite-filter.ts, postgres-filter.ts) read of a
 * MongoDB filter before they write any SQL: the same rules for both, so they agree on what a
 * field name, an operator object and a comparable value are.
 */

/** How a field has been stored in a collection: decides which SQL can match it. */
export type FieldShape = 'scalar' | 'array' | 'unknown';

/** One segment of a dotted field that can be spliced into a JSON path (array positions and odd names cannot). */
export const FIELD_SEGMENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export type Scalar = 'null' | 'bool' | 'text' | 'number' | 'other';

export function scalarKind(v: unknown): Scalar {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'text';
  if (typeof v === 'number' && Number.isFinite(v)) return 'number';
  return 'other';
}

/** `{ $gt: 1 }` rather than a value to match whole (a date or a regex is a value). */
export function isOperators(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof RegExp) return false;
  return Object.keys(value).some((k) => k.startsWith('$'));
}

export const RANGE: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };
