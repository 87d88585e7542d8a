import { mingo } from '../mingo-on-demand';
import { Update } from '../store.port';
import { encodeDoc } from './sqlite-json';

type Row = Record<string, unknown>;

/**
 * Applies a MongoDB update to a document in place; true when something changed. mingo's updater
 * does the work, except `$addToSet`: mingo also removes duplicates already in the array, where
 * MongoDB only declines to add a value that is there.
 */
export function applyUpdate(doc: Row, update: Update): boolean {
  const plain = applyPlain(doc, update);
  if (plain !== undefined) return plain;
  const { $addToSet, ...rest } = update;
  let changed = Object.keys(rest).length > 0 && mingo().update(doc, rest as never).length > 0;
  for (const [field, operand] of Object.entries($addToSet ?? {})) changed = addToSet(doc, field, operand) || changed;
  return changed;
}

const PLAIN_OPERATORS = new Set(['$set', '$unset', '$inc']);

const isPlainValue = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** A JSON-shaped object or array (plain values all the way down): `$set` gives the field a copy of it. */
function isPlainTree(v: unknown): boolean {
  if (isPlainValue(v)) return true;
  if (Array.isArray(v)) return v.every(isPlainTree);
  if (typeof v !== 'object' || v === null || Object.getPrototypeOf(v) !== Object.prototype) return false;
  return Object.entries(v).every(([key, value]) => !key.startsWith('$') && !key.includes('.') && value !== undefined && isPlainTree(value));
}

/**
 * The common write (`$set` of plain values or JSON-shaped objects and arrays, `$unset`, `$inc` on top-level fields) applied directly,
 * with the same outcome as mingo's operators; undefined for anything else (mingo does it).
 * mingo's updater builds its whole operator context on every call: most of an update's CPU.
 */
function applyPlain(doc: Row, update: Update): boolean | undefined {
  const seen = new Set<string>();
  for (const [op, fields] of Object.entries(update)) {
    if (!PLAIN_OPERATORS.has(op) || typeof fields !== 'object' || fields === null) return undefined;
    for (const [field, operand] of Object.entries(fields as Row)) {
      // Dotted paths, _id and a field named twice (MongoDB refuses that) stay with mingo.
      if (field === '' || field === '_id' || field.includes('.') || field.startsWith('$') || seen.has(field)) return undefined;
      seen.add(field);
      if (op === '$set' && !isPlainTree(operand)) return undefined;
      if (op === '$inc' && !(typeof operand === 'number' && Number.isFinite(operand))) return undefined;
      if (op === '$inc' && doc[field] !== undefined && typeof doc[field] !== 'number') return undefined;
    }
  }
  let changed = false;
  for (const [op, fields] of Object.entries(update)) {
    for (const [field, operand] of Object.entries(fields as Row)) {
      const before = doc[field];
      if (op === '$set') doc[field] = isPlainValue(operand) ? operand : structuredClone(operand);
      else if (op === '$inc') doc[field] = ((before as number | undefined) || 0) + (operand as number);
      else if (Object.prototype.hasOwnProperty.call(doc, field)) delete doc[field];
      else continue;
      // An object or array set counts as a change even when equal, as mingo counts it.
      if (!Object.is(before, doc[field]) && !(before === 0 && doc[field] === 0)) changed = true;
    }
  }
  return changed;
}

function addToSet(doc: Row, field: string, operand: unknown): boolean {
  const values = isEach(operand) ? operand.$each : [operand];
  const segments = field.split('.');
  let parent = doc;
  for (const s of segments.slice(0, -1)) parent = (parent[s] ??= {}) as Row;
  const key = segments[segments.length - 1];
  const list = (parent[key] ??= []) as unknown[];
  if (!Array.isArray(list)) throw new Error(`$addToSet: ${field} is not an array`);
  const present = new Set(list.map((v) => encodeDoc([v])));
  let added = false;
  for (const value of values) {
    const text = encodeDoc([value]);
    if (present.has(text)) continue;
    present.add(text);
    list.push(value);
    added = true;
  }
  return added;
}

function isEach(operand: unknown): operand is { $each: unknown[] } {
  return typeof operand === 'object' && operand !== null && Array.isArray((operand as Row).$each);
}
