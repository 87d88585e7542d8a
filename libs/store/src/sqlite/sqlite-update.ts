import { update as mingoUpdate } from 'mingo';
import { Update } from '../store.port';
import { encodeDoc } from './sqlite-json';

type Row = Record<string, unknown>;

/**
 * Applies a MongoDB update to a document in place; true when something changed. mingo's updater
 * does the work, except `$addToSet`: mingo also removes duplicates already in the array, where
 * MongoDB only declines to add a value that is there.
 */
export function applyUpdate(doc: Row, update: Update): boolean {
  const { $addToSet, ...rest } = update;
  let changed = Object.keys(rest).length > 0 && mingoUpdate(doc, rest as never).length > 0;
  for (const [field, operand] of Object.entries($addToSet ?? {})) changed = addToSet(doc, field, operand) || changed;
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
