import { isOperators } from '../filter-terms';
import type { BaseDoc, Filter, FindOptions } from '../store.port';
import { isKeyValue, KeyValue } from './doc-cache';

/**
 * The reads a document cache can answer, whatever the engine: lookups by id and by a unique key.
 * Both engines answer them in `_id` order, as a lookup by ids gives them on SQLite.
 */
export const byId = (a: BaseDoc, b: BaseDoc) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The ids of a filter that is a lookup by id and nothing else (`{ _id }`, `{ _id: { $in } }`; findOne's limit 1 allowed). */
export function idLookup(filter: Filter, options: FindOptions): string[] | undefined {
  const { limit, ...rest } = options;
  if (Object.keys(rest).length > 0) return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const value = filter._id;
  if (typeof value === 'string') return [value];
  if (!isOperators(value) || Object.keys(value).length !== 1) return undefined;
  const list = (value as { $in?: unknown }).$in;
  if (!Array.isArray(list) || !list.every((id) => typeof id === 'string')) return undefined;
  return limit === undefined || limit >= new Set(list).size ? list : undefined;
}

/** Longer lists (a fan-out to every follower) take the query: they would push a page's keys out of the cache. */
const MAX_KEYS_CACHED = 100;

/** A lookup by a unique key: its fields in the index's order, and the values to find (one list per document). */
export interface KeyLookup {
  fields: readonly string[];
  wanted: KeyValue[][];
}

/**
 * A filter that pins every field of one unique key and nothing else, each to a value or one of
 * them to a list (`{ slug: 'x' }`, `{ user_id, review_id: { $in } }`); findOne's limit 1 allowed.
 */
export function keyLookup(filter: Filter, options: FindOptions, uniqueKeys: readonly (readonly string[])[]): KeyLookup | undefined {
  const { limit, ...rest } = options;
  if (Object.keys(rest).length > 0 || limit === 0) return undefined;
  const names = Object.keys(filter);
  const fields = uniqueKeys.find((key) => key.length === names.length && key.every((field) => names.includes(field)));
  if (!fields) return undefined;
  let wanted: KeyValue[][] = [[]];
  for (const field of fields) {
    const value = filter[field];
    const list = isOperators(value) && Object.keys(value).length === 1 ? (value as { $in?: unknown }).$in : undefined;
    if (isKeyValue(value)) wanted.forEach((values) => values.push(value));
    else if (Array.isArray(list) && list.every(isKeyValue) && wanted.length === 1) wanted = [...new Set(list)].map((one) => [...wanted[0], one]);
    else return undefined;
  }
  return wanted.length <= MAX_KEYS_CACHED && (limit === undefined || limit >= wanted.length) ? { fields, wanted } : undefined;
}
