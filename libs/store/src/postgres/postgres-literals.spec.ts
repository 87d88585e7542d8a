import { escapeLiteral } from 'pg';
import { quoteLiteral, withLiterals } from './postgres-collection';

describe('literals written into a simple query', () => {
  it('quotes text exactly as node-postgres does: quotes doubled, backslashes in an E literal', () => {
    const texts = ['', 'plain', "O'Brien", "''", 'a\\b', "it's \\ $1 ; COMMIT", '\\', 'Çay bahçesi İ ı 🚀', '{"a":"x\\"y"}', "'\\'"];
    for (const text of texts) expect(quoteLiteral(text)).toBe(escapeLiteral(text));
  });

  it('writes each parameter in, arrays as ARRAY[...], and refuses a value it cannot write', () => {
    expect(withLiterals('SELECT $1, $2, $3, $4', ["it's", 2, true, ['a', null]])).toBe("SELECT 'it''s', (2), TRUE, ARRAY['a', NULL]");
    expect(withLiterals('SELECT $1', [{ not: 'written' }])).toBeNull();
    expect(withLiterals('SELECT $1', [Number.NaN])).toBeNull();
  });
});
