import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth';

const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('jsonDepthExceeds', () => {
  it.each([
    ['arrays', arrays],
    ['objects', objects],
  ])('allows %s nested up to the limit and refuses one level more', (_kind, nest) => {
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(nest(MAX_JSON_DEPTH + 1)))).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ content: '['.repeat(100), quoted: '\\"[[[[' + '{'.repeat(50) });
    expect(jsonDepthExceeds(text)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(text))).toBe(false);
  });

  it('counts depth, not the number of brackets', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])))).toBe(false);
  });
});
