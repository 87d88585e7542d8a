import { Filter, SortSpec } from '../store.port';
import { FIELD_SEGMENT, FieldShape, isOperators, RANGE, scalarKind } from '../filter-terms';
import { toJsonb } from './postgres-json';

/**
 * MongoDB filters to SQL over `jsonb` documents (`doc` column, `_id` column), PostgreSQL's
 * counterpart of sqlite-filter.ts with the same rules: what SQL answers exactly is translated
 * with bound parameters (equality, $in, $nin, $ne, ranges, $exists, $or/$and of those, on
 * top-level and dotted fields); anything else (regexes, sub-document equality, dates, ranges
 * over arrays) is left out, the SQL then only narrows the candidates and `complete` is false:
 * the caller runs the whole filter through mingo. MongoDB's meaning wins: `null` matches a
 * missing field too, `$ne`/`$nin` match missing fields, a comparison never crosses types.
 *
 * A scalar field is compared through `doc -> 'a' -> 'b'`, the very expression its index is built
 * on, so the planner uses the index; jsonb equality keeps types apart (1 is not "1" nor true).
 * An array field is matched element-wise with `@>`, which also matches a lone scalar.
 */
export interface PgFilter {
  where: string;
  complete: boolean;
}

/** Bound parameters of one statement: `add` returns the placeholder (`$3`). */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Drops the parameters added after `mark` (a branch that fell back to mingo). */
  truncate(mark: number): void {
    this.values.length = mark;
  }
}

/** The jsonb expression of a dotted field, or null when it cannot be one (array positions, odd names). */
export function fieldSql(field: string): string | null {
  if (field === '_id') return '_id';
  const segments = field.split('.');
  if (!segments.every((s) => FIELD_SEGMENT.test(s))) return null;
  return `(doc${segments.map((s) => ` -> '${s}'`).join('')})`;
}

class Translator {
  constructor(
    private readonly params: Params,
    private readonly shapeOf: (field: string) => FieldShape,
  ) {}

  conjunction(filter: Filter): PgFilter {
    const parts: string[] = [];
    let complete = true;
    for (const [field, condition] of Object.entries(filter)) {
      for (const c of this.clause(field, condition)) {
        if (c === null) complete = false;
        else parts.push(c);
      }
    }
    return { where: parts.length === 0 ? 'TRUE' : parts.map((p) => `(${p})`).join(' AND '), complete };
  }

  private clause(field: string, condition: unknown): (string | null)[] {
    if (field === '$and' && Array.isArray(condition)) {
      return condition.map((sub: Filter) => {
        const { where, complete } = this.conjunction(sub);
        return complete ? where : null;
      });
    }
    if (field === '$or' && Array.isArray(condition)) return [this.disjunction(condition as Filter[])];
    if (field.startsWith('$')) return [null];
    const value = fieldSql(field);
    const shape = field === '_id' ? 'scalar' : this.shapeOf(field);
    if (value === null || shape === 'unknown') return [null];
    const f = field === '_id' ? new IdSql(this.params) : new FieldSqlPg(value, shape, this.params);
    if (!isOperators(condition)) return [f.eq(condition)];
    return Object.entries(condition).map(([op, operand]) => f.operator(op, operand));
  }

  /** An $or is in SQL only when every branch is: dropping a branch would lose matches. */
  private disjunction(branches: Filter[]): string | null {
    if (branches.length === 0) return null;
    const mark = this.params.values.length;
    const sqls: string[] = [];
    for (const branch of branches) {
      const { where, complete } = this.conjunction(branch);
      if (!complete) {
        this.params.truncate(mark);
        return null;
      }
      sqls.push(`(${where})`);
    }
    return sqls.join(' OR ');
  }
}

interface OperatorSql {
  eq(operand: unknown): string | null;
  operator(op: string, operand: unknown): string | null;
}

/**
 * `_id` is a text column: plain text comparisons, `= ANY` for lists. PostgreSQL text cannot hold
 * U+0000, so no stored id has one: such a value (a client's `%00`) matches nothing, rather than
 * failing the statement.
 */
class IdSql implements OperatorSql {
  constructor(private readonly params: Params) {}

  eq(operand: unknown): string | null {
    if (operand === null || (typeof operand === 'string' && operand.includes('\u0000'))) return 'FALSE';
    return typeof operand === 'string' ? `_id = ${this.params.add(operand)}` : null;
  }

  operator(op: string, operand: unknown): string | null {
    const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((v) => typeof v === 'string');
    const storable = (list: string[]) => list.filter((v) => !v.includes('\u0000'));
    switch (op) {
      case '$eq':
        return this.eq(operand);
      case '$ne':
        return operand === null || typeof operand === 'string' ? `NOT (${this.eq(operand)})` : null;
      case '$in':
        return strings(operand) ? `_id = ANY(${this.params.add(storable(operand))}::text[])` : null;
      case '$nin':
        return strings(operand) ? `NOT (_id = ANY(${this.params.add(storable(operand))}::text[]))` : null;
      case '$exists':
        return operand ? 'TRUE' : 'FALSE';
      default:
        return op in RANGE && typeof operand === 'string' && !operand.includes('\u0000') ? `_id ${RANGE[op]} ${this.params.add(operand)}` : null;
    }
  }
}

class FieldSqlPg implements OperatorSql {
  constructor(
    private readonly value: string,
    private readonly shape: 'scalar' | 'array',
    private readonly params: Params,
  ) {}

  operator(op: string, operand: unknown): string | null {
    switch (op) {
      case '$eq':
        return this.eq(operand);
      case '$ne':
        return this.negate(this.eq(operand), operand);
      case '$in':
        return Array.isArray(operand) ? this.in(operand) : null;
      case '$nin':
        return Array.isArray(operand) ? this.negate(this.in(operand), operand) : null;
      case '$exists':
        return `${this.value} IS ${operand ? 'NOT ' : ''}NULL`;
      default:
        return op in RANGE ? this.range(RANGE[op], operand) : null;
    }
  }

  eq(operand: unknown): string | null {
    const kind = scalarKind(operand);
    if (kind === 'other') return null;
    if (kind === 'null') return this.shape === 'scalar' ? `${this.value} IS NULL OR ${this.value} = 'null'::jsonb` : null;
    const json = `${this.params.add(toJsonb(operand))}::jsonb`;
    return this.shape === 'scalar' ? `${this.value} = ${json}` : `${this.value} @> ${json}`;
  }

  private in(list: unknown[]): string | null {
    const plain = list.filter((v) => ['text', 'number', 'bool'].includes(scalarKind(v)));
    const rest = list.filter((v) => !plain.includes(v));
    const parts: (string | null)[] = rest.map((v) => this.eq(v));
    if (plain.length > 0) {
      // One array parameter: a list of any length is one placeholder.
      const values = `${this.params.add(plain.map((v) => toJsonb(v)))}::jsonb[]`;
      parts.push(this.shape === 'scalar' ? `${this.value} = ANY(${values})` : `${this.value} @> ANY(${values})`);
    }
    if (parts.length === 0) return 'FALSE';
    return parts.some((p) => p === null) ? null : parts.map((p) => `(${p})`).join(' OR ');
  }

  /** NOT of a match, where an unknown (NULL: a missing field) counts as "no match", as in MongoDB. */
  private negate(positive: string | null, operand: unknown): string | null {
    if (positive === null) return null;
    if (this.shape === 'array' && [operand].flat().includes(null)) return null;
    return `NOT COALESCE((${positive}), FALSE)`;
  }

  private range(op: string, operand: unknown): string | null {
    const kind = scalarKind(operand);
    if (this.shape !== 'scalar' || (kind !== 'text' && kind !== 'number')) return null;
    // jsonb orders every string below every number: the type test keeps the comparison within one type.
    const type = kind === 'text' ? 'string' : 'number';
    return `${this.value} ${op} ${this.params.add(toJsonb(operand))}::jsonb AND jsonb_typeof(${this.value}) = '${type}'`;
  }
}

export function toPgFilter(filter: Filter, params: Params, shapeOf: (field: string) => FieldShape): PgFilter {
  return new Translator(params, shapeOf).conjunction(filter);
}

/**
 * ORDER BY for a sort, or null when a sorted field is an array (mingo sorts those). A missing
 * field sorts first ascending, as in MongoDB; the indexes are built with the same NULLS order.
 */
export function toPgOrder(sort: SortSpec, shapeOf: (field: string) => FieldShape): string | null {
  const terms: string[] = [];
  for (const [field, direction] of Object.entries(sort)) {
    const value = fieldSql(field);
    if (value === null || (field !== '_id' && shapeOf(field) !== 'scalar')) return null;
    terms.push(`${value} ${orderSql(direction)}`);
  }
  return terms.join(', ');
}

export const orderSql = (direction: 1 | -1): string => (direction === -1 ? 'DESC NULLS LAST' : 'ASC NULLS FIRST');
