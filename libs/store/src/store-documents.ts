import type { Filter, GroupKey, Increment } from './store.port';

type Row = Record<string, unknown>;

// What every engine that applies MongoDB's rules in the process (SQLite, PostgreSQL) needs alike.

/** The document an upsert starts from: the filter's plain equalities (dotted ones nested). */
export function upsertBase(filter: Filter): Row {
  const base: Row = {};
  const put = (field: string, value: unknown) => {
    const segments = field.split('.');
    let at = base;
    for (const s of segments.slice(0, -1)) at = (at[s] ??= {}) as Row;
    at[segments[segments.length - 1]] = value;
  };
  for (const [field, value] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(value)) Object.assign(base, ...value.map(upsertBase));
    else if (field.startsWith('$')) continue;
    else if (typeof value !== 'object' || value === null || value instanceof Date) put(field, value);
    else if (!Object.keys(value).some((k) => k.startsWith('$'))) put(field, value);
    else if ('$eq' in value) put(field, (value as Row).$eq);
  }
  return base;
}

/** `countBy` over documents in hand (what SQL could not filter or group): a missing field counts as null. */
export function tallyField(docs: readonly Row[], field: string): Map<GroupKey, number> {
  const counts = new Map<GroupKey, number>();
  for (const doc of docs) {
    let at: unknown = doc;
    for (const segment of field.split('.')) {
      if (Array.isArray(at)) break;
      at = typeof at === 'object' && at !== null ? (at as Row)[segment] : undefined;
    }
    if (typeof at === 'object' && at !== null) throw new Error(`countBy groups by a field holding one scalar; ${field} holds ${Array.isArray(at) ? 'an array' : 'an object'}`);
    const key = (at ?? null) as GroupKey;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** `incrementEach`'s amounts summed per document (an id listed twice adds both), for the adapters. */
export function amountsById(amounts: readonly Increment[]): Map<string, Record<string, number>> {
  const byId = new Map<string, Record<string, number>>();
  for (const { id, inc } of amounts) {
    const sum = byId.get(id) ?? {};
    for (const [field, by] of Object.entries(inc)) sum[field] = (sum[field] ?? 0) + by;
    byId.set(id, sum);
  }
  return byId;
}
