import { decodeDoc, encodeDoc } from '../sqlite/sqlite-json';

/**
 * Documents as jsonb text: SQLite's encoding (dates as `{"$$date": ms}`), plus what jsonb cannot
 * hold and MongoDB and SQLite can, inside a string: U+0000 and a lone surrogate (text a client sent
 * as JSON may have either). Such a character, which JSON.stringify writes as a `\uXXXX` escape, is
 * stored as ESC + its four hex digits, where ESC is U+E000 (private use) and an ESC of the text
 * itself is doubled; it is read back as it was. Filter values go through the same encoding, so
 * equality still matches. Plain text pays one test each way.
 */
const ESC = '\uE000';
/** JSON's escape of U+0000 or a lone surrogate, after any run of backslashes (odd: an escape; even: literal text). */
const REFUSED = /(\\+)u(0000|d[89a-f][0-9a-f]{2})/g;

export function toJsonb(value: unknown): string {
  const text = encodeDoc(value as object);
  if (!text.includes(ESC) && !/\\u(0000|d[89a-f])/.test(text)) return text;
  return text
    .replace(/\uE000/g, ESC + ESC)
    .replace(REFUSED, (run: string, slashes: string, hex: string) => (slashes.length % 2 === 1 ? `${slashes.slice(1)}${ESC}${hex}` : run));
}

export function fromJsonb<T>(text: string): T {
  if (!text.includes(ESC)) return decodeDoc<T>(text);
  return decodeDoc<T>(text.replace(/\uE000(\uE000|[0-9a-f]{4})/g, (_pair: string, next: string) => (next === ESC ? ESC : `\\u${next}`)));
}
