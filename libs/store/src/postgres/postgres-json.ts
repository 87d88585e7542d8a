import { decodeDoc, encodeDoc } from '../sqlite/sqlite-json';

/**
 * Documents as jsonb text: SQLite's encoding (dates as `{"$$date": ms}`), plus one thing jsonb
 * cannot hold and MongoDB and SQLite can: U+0000 inside a string. It is stored as ESC + "0", where
 * ESC is U+E000 (private use) and an ESC of the text itself is doubled, and read back as it was.
 * Filter values go through the same encoding, so equality still matches. Plain text pays one
 * `includes` each way.
 */
const ESC = '\uE000';

export function toJsonb(value: unknown): string {
  const text = encodeDoc(value as object);
  if (!text.includes(ESC) && !text.includes('\\u0000')) return text;
  // An odd run of backslashes before u0000 is JSON's escape of U+0000; an even one is literal text.
  return text.replace(/\uE000/g, ESC + ESC).replace(/(\\+)u0000/g, (run: string, slashes: string) => (slashes.length % 2 === 1 ? `${slashes.slice(1)}${ESC}0` : run));
}

export function fromJsonb<T>(text: string): T {
  if (!text.includes(ESC)) return decodeDoc<T>(text);
  return decodeDoc<T>(text.replace(/\uE000([\uE0000])/g, (_pair: string, next: string) => (next === '0' ? '\\u0000' : ESC)));
}
