import { foldText, searchWords } from '../text-search';

/**
 * Full-text search on PostgreSQL (docs/decisions/store.md): each document of a collection declared
 * with `text` fields carries a `search tsvector` column, GIN-indexed. The folding is the one SQLite
 * and the queries use (`foldText`: Turkish İ/I/ı, case, diacritics), done here in JavaScript, and
 * the vector is written as a literal of those words: no text-search configuration of the server
 * (stemming, stop words, its own parser) comes between, so both engines match the same words.
 */

/** tsvector's limits: a lexeme under 2 KB, at most 256 positions each, positions up to 16383. */
const MAX_LEXEME_BYTES = 2047;
const MAX_POSITIONS = 256;
const MAX_POSITION = 16383;

const quoteLexeme = (word: string): string => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The folded words of the text fields of `doc` (strings only, in field order) as a tsvector literal. */
export function tsvectorOf(doc: Record<string, unknown>, fields: readonly string[]): string {
  const text = fields
    .map((f) => f.split('.').reduce<unknown>((at, s) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[s] : undefined), doc))
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  const positions = new Map<string, number[]>();
  const words = foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  words.forEach((word, i) => {
    if (Buffer.byteLength(word) > MAX_LEXEME_BYTES) return;
    const list = positions.get(word) ?? [];
    if (list.length < MAX_POSITIONS) list.push(Math.min(i + 1, MAX_POSITION));
    positions.set(word, list);
  });
  return [...positions].map(([word, at]) => `${quoteLexeme(word)}:${at.join(',')}`).join(' ');
}

/**
 * A tsquery holding every word of the query, the last one as a prefix (`kett` finds "kettle": the
 * search box filters as the member types); null when the query has no word.
 */
export function tsqueryOf(query: string): string | null {
  const words = searchWords(query).filter((w) => Buffer.byteLength(w) <= MAX_LEXEME_BYTES);
  if (words.length === 0) return null;
  return words.map((w, i) => `${quoteLexeme(w)}${i === words.length - 1 ? ':*' : ''}`).join(' & ');
}
