import { FIELD_SEGMENT, FieldShape, isOperators, RANGE, scalarKind } from '../filter-terms';
import { Filter, SortSpec } from '../store.port';

/**
 * MongoDB filters to SQL over JSON documents (`doc` column, `_id` column).
 *
 * What SQL can answer exactly is translated, with bound parameters: equality, $in, $nin, $ne,
 * ranges, $exists, a regex that is plain text (a substring test), and $or/$and of those, on
 * top-level and dotted fields. Everything else (other regexes, sub-document equality, dates,
 * ranges over arrays...) is left out of the SQL, which
 * then only narrows the candidates, and `complete` is false: the caller evaluates the whole
 * filter with mingo over them. MongoDB's meaning wins where SQL's differs: `null` matches a
 * missing field too, `$ne`/`$nin` match missing fields, a comparison never crosses types.
 */
export interface SqlFilter {
  where: string;
  params: unknown[];
  /** The SQL alone decides the match (no mingo pass needed). */
  complete: boolean;
}

/** The JSON path of a dotted field, or null when it cannot be one (array positions, odd names). */
export function jsonPath(field: string): string | null {
  const segments = field.split('.');
  if (!segments.every((s) => FIELD_SEGMENT.test(s))) return null;
  return '$' + segments.map((s) => `."${s}"`).join('');
}

/** The SQL expression of a field's value; the expression indexes are built from the same text. */
export function valueSql(field: string, path: string): string {
  return field === '_id' ? '_id' : `json_extract(doc, '${path}')`;
}

/** Builds SQL fragments for one filter; `null` from a builder means "not expressible in SQL". */
class Translator {
  readonly params: unknown[] = [];

  constructor(private readonly shapeOf: (field: string) => FieldShape) {}

  /** A conjunction: parts SQL cannot express are dropped (the result matches a superset). */
  conjunction(filter: Filter): { sql: string; complete: boolean } {
    const parts: string[] = [];
    let complete = true;
    for (const [field, condition] of Object.entries(filter)) {
      const clauses = this.clause(field, condition);
      for (const c of clauses) {
        if (c === null) complete = false;
        else parts.push(c);
      }
    }
    return { sql: parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND '), complete };
  }

  private clause(field: string, condition: unknown): (string | null)[] {
    if (field === '$and' && Array.isArray(condition)) {
      return condition.map((sub: Filter) => {
        const { sql, complete } = this.conjunction(sub);
        return complete ? sql : null;
      });
    }
    if (field === '$or' && Array.isArray(condition)) return [this.disjunction(condition as Filter[])];
    if (field.startsWith('$')) return [null];
    const path = jsonPath(field);
    const shape = field === '_id' ? 'scalar' : this.shapeOf(field);
    if (path === null || shape === 'unknown') return [null];
    const f = new FieldSql(field, path, shape, this.params);
    if (!isOperators(condition)) return [f.eq(condition)];
    return Object.entries(condition).map(([op, value]) => f.operator(op, value));
  }

  /** An $or is in SQL only when every branch is: dropping a branch would lose matches. */
  private disjunction(branches: Filter[]): string | null {
    if (branches.length === 0) return null;
    const mark = this.params.length;
    const sqls: string[] = [];
    for (const branch of branches) {
      const { sql, complete } = this.conjunction(branch);
      if (!complete) {
        this.params.length = mark;
        return null;
      }
      sqls.push(`(${sql})`);
    }
    return sqls.join(' OR ');
  }
}

/** SQL for one field: a scalar through its expression (indexable), an array element by element. */
class FieldSql {
  private readonly value: string;
  private readonly type: string;

  constructor(
    field: string,
    private readonly path: string,
    private readonly shape: 'scalar' | 'array',
    private readonly params: unknown[],
  ) {
    this.value = valueSql(field, path);
    this.type = `json_type(doc, '${path}')`;
  }

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
        return `${this.type} IS ${operand ? 'NOT ' : ''}NULL`;
      case '$regex':
        return this.substring(operand);
      default:
        return op in RANGE ? this.range(RANGE[op], operand) : null;
    }
  }

  eq(operand: unknown): string | null {
    const kind = scalarKind(operand);
    if (kind === 'null') return this.shape === 'scalar' ? `${this.value} IS NULL` : null;
    if (kind === 'bool') return this.element(`value = ${operand ? 1 : 0} AND type = '${operand}'`, `${this.value} = ${operand ? 1 : 0} AND ${this.type} = '${operand}'`);
    if (kind === 'other') return null;
    this.params.push(operand);
    return this.element('value = ?', `${this.value} = ?`);
  }

  private in(list: unknown[]): string | null {
    const plain = list.filter((v) => scalarKind(v) === 'text' || scalarKind(v) === 'number');
    const rest = list.filter((v) => !plain.includes(v));
    const parts: (string | null)[] = rest.map((v) => this.eq(v));
    // One value is an equality: an index lookup without json_each's table.
    if (plain.length === 1) parts.push(this.eq(plain[0]));
    else if (plain.length > 0) {
      // One JSON array parameter: a list of any length stays clear of SQLite's variable limit.
      this.params.push(JSON.stringify(plain));
      parts.push(this.element('value IN (SELECT value FROM json_each(?))', `${this.value} IN (SELECT value FROM json_each(?))`));
    }
    if (parts.length === 0) return '0';
    return parts.some((p) => p === null) ? null : parts.map((p) => `(${p})`).join(' OR ');
  }

  /**
   * A regex that is a plain piece of text (no flags, no pattern syntax: what the search keys
   * build) as a substring test, so a search needs no decoding of every row for mingo. A regex
   * only ever matches a string.
   */
  private substring(operand: unknown): string | null {
    const text = operand instanceof RegExp && operand.flags === '' ? literalOf(operand.source) : null;
    if (text === null || this.shape !== 'scalar') return null;
    this.params.push(text);
    return `${this.type} = 'text' AND instr(${this.value}, ?) > 0`;
  }

  /** NOT of a match, where an unknown (NULL: a missing field) counts as "no match", as in MongoDB. */
  private negate(positive: string | null, operand: unknown): string | null {
    if (positive === null) return null;
    // A null inside an array is out of reach of `IS NULL`: leave that case to mingo.
    if (this.shape === 'array' && [operand].flat().includes(null)) return null;
    return `NOT COALESCE((${positive}), 0)`;
  }

  private range(op: string, operand: unknown): string | null {
    const kind = scalarKind(operand);
    // MongoDB compares within a type; in SQLite every number sorts below every text.
    if (this.shape !== 'scalar' || (kind !== 'text' && kind !== 'number')) return null;
    this.params.push(operand);
    const bound = kind === 'number' ? (op.startsWith('>') ? ` AND ${this.value} < ''` : '') : op.startsWith('<') ? ` AND ${this.value} >= ''` : '';
    return `${this.value} ${op} ?${bound}`;
  }

  /** On a scalar field, the expression; on an array field, any element (json_each also yields a lone scalar). */
  private element(elementSql: string, scalarSql: string): string {
    if (this.shape === 'scalar') return scalarSql;
    return `EXISTS (SELECT 1 FROM json_each(doc, '${this.path}') WHERE ${elementSql})`;
  }
}

const PATTERN_SYNTAX = new Set([...'\\^$.|?*+()[]{}/-']);

/** The text a regex source matches literally (escaped syntax characters allowed), or null for any pattern. */
export function literalOf(source: string): string | null {
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[++i];
      if (next === undefined || !PATTERN_SYNTAX.has(next)) return null; // \d, \b, \u...: a pattern
      text += next;
    } else if (PATTERN_SYNTAX.has(c) && c !== '-' && c !== '/') {
      return null;
    } else {
      text += c;
    }
  }
  return text;
}

export function toSqlFilter(filter: Filter, shapeOf: (field: string) => FieldShape): SqlFilter {
  const t = new Translator(shapeOf);
  const { sql, complete } = t.conjunction(filter);
  return { where: sql, params: t.params, complete };
}

/**
 * LIMIT and OFFSET as literals. Bound as parameters, SQLite's planner reads their values, which
 * marks the statement to be prepared again on every later bind: parsed and planned anew on each
 * run (6 % of a product search's CPU in the stack). A literal costs one cached statement per page
 * size and offset instead. No limit (0 or absent) is SQLite's -1.
 */
export function toSqlPage(limit: number | undefined, skip: number | undefined): string {
  const count = (value: number | undefined) => {
    const n = value ?? 0;
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`A page's limit and skip must be whole numbers from 0: got ${value}`);
    return n;
  };
  return ` LIMIT ${count(limit) || -1} OFFSET ${count(skip)}`;
}

/** ORDER BY for a sort, or null when a sorted field is an array (mingo sorts those). */
export function toSqlOrder(sort: SortSpec, shapeOf: (field: string) => FieldShape): string | null {
  const terms: string[] = [];
  for (const [field, direction] of Object.entries(sort)) {
    const path = jsonPath(field);
    if (path === null || (field !== '_id' && shapeOf(field) !== 'scalar')) return null;
    terms.push(`${valueSql(field, path)} ${direction === -1 ? 'DESC' : 'ASC'}`);
  }
  return terms.join(', ');
}
