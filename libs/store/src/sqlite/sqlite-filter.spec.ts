import { literalOf, toSqlFilter, toSqlPage } from './sqlite-filter';

describe('sqlite-filter: a regex that is plain text becomes a substring test', () => {
  it('reads the literal text of a source, escaped syntax included, and refuses any pattern', () => {
    expect(literalOf('kahve')).toBe('kahve');
    expect(literalOf('a\\.b \\(x\\) 1\\+1')).toBe('a.b (x) 1+1');
    expect(literalOf('')).toBe('');
    for (const pattern of ['a.b', '^kahve', 'kahve$', 'a|b', 'ab*', '[ab]', '\\d', '\\bword', 'a\\', '(x)']) {
      expect(literalOf(pattern)).toBeNull();
    }
  });

  it('puts a flagless literal regex in SQL (complete), and leaves flags and patterns to mingo', () => {
    const scalar = () => 'scalar' as const;
    const plain = toSqlFilter({ search_key: { $regex: /sony kulak/ } }, scalar);
    expect(plain).toEqual({ where: expect.stringContaining('instr('), params: ['sony kulak'], complete: true });
    expect(toSqlFilter({ search_key: { $regex: /sony/i } }, scalar).complete).toBe(false);
    expect(toSqlFilter({ search_key: { $regex: /^sony/ } }, scalar).complete).toBe(false);
    expect(toSqlFilter({ search_key: { $regex: 'sony' } }, scalar).complete).toBe(false);
    expect(toSqlFilter({ tags: { $regex: /sony/ } }, () => 'array').complete).toBe(false);
  });
});

describe('sqlite-filter: $in', () => {
  const scalar = () => 'scalar' as const;

  it('with one value is an equality (an index lookup), with more a json_each list', () => {
    expect(toSqlFilter({ _id: { $in: ['a'] } }, scalar)).toEqual({ where: expect.not.stringContaining('json_each'), params: ['a'], complete: true });
    expect(toSqlFilter({ user_id: { $in: ['a', 'b'] } }, scalar)).toEqual({ where: expect.stringContaining('json_each'), params: ['["a","b"]'], complete: true });
    expect(toSqlFilter({ user_id: { $nin: ['a'] } }, scalar).where).toContain('NOT COALESCE');
  });
});

describe('sqlite-filter: a page', () => {
  it('is LIMIT and OFFSET as literals (bound, SQLite prepares the statement again on every run), no limit as -1', () => {
    expect(toSqlPage(12, 24)).toBe(' LIMIT 12 OFFSET 24');
    expect(toSqlPage(undefined, 5)).toBe(' LIMIT -1 OFFSET 5');
    expect(toSqlPage(10, undefined)).toBe(' LIMIT 10 OFFSET 0');
  });

  it('refuses anything but a whole number from 0, so nothing but digits reaches the SQL text', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3; DROP TABLE x' as unknown as number]) {
      expect(() => toSqlPage(bad, 0)).toThrow(RangeError);
      expect(() => toSqlPage(10, bad)).toThrow(RangeError);
    }
  });
});
