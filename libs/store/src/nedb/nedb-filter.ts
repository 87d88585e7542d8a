import { Filter } from '../store.port';

type Operators = Record<string, unknown>;

/** `{ $in: [...] }`-style conditions: a plain object whose keys are operators (not a Date, RegExp or sub-document). */
function isOperators(value: unknown): value is Operators {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof RegExp) return false;
  return Object.keys(value).some((k) => k.startsWith('$'));
}

const hasNull = (list: unknown): boolean => Array.isArray(list) && list.includes(null);
const missing = (field: string): Filter => ({ [field]: { $exists: false } });

/**
 * Rewrites a MongoDB filter into one NeDB evaluates the same way. Services are tested on
 * NeDB and run on MongoDB, so where the two disagree MongoDB's meaning wins:
 * - `null` also matches a missing field (`{ f: null }`, `{ f: { $in: [null] } }`), and
 *   `$ne: null` / `$nin: [null]` leave missing fields out;
 * - `$regex` may be a string with `$options` (NeDB only takes a RegExp).
 */
export function toNedbFilter(filter: Filter): Filter {
  const out: Filter = {};
  const extra: Filter[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if ((field === '$or' || field === '$and') && Array.isArray(condition)) {
      out[field] = condition.map((sub: Filter) => toNedbFilter(sub));
    } else if (condition === null) {
      extra.push({ $or: [{ [field]: null }, missing(field)] });
    } else if (isOperators(condition)) {
      const ops: Operators = { ...condition };
      if (typeof ops.$regex === 'string') {
        ops.$regex = new RegExp(ops.$regex, typeof ops.$options === 'string' ? ops.$options : '');
        delete ops.$options;
      }
      if ((ops.$ne === null || hasNull(ops.$nin)) && ops.$exists === undefined) ops.$exists = true;
      if (hasNull(ops.$in)) {
        extra.push({ $or: [{ [field]: { $in: ops.$in } }, missing(field)] });
        delete ops.$in;
      }
      if (Object.keys(ops).length > 0) out[field] = ops;
    } else {
      out[field] = condition;
    }
  }
  if (extra.length > 0) out.$and = [...(Array.isArray(out.$and) ? out.$and : []), ...extra];
  return out;
}
