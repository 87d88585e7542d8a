/**
 * Hashtags (issue 21 §6): `#word` in a review's text, the word made of Unicode letters, digits
 * and underscores (Turkish letters included). Shared by the reviews service (which stores the
 * tags) and the web (which links them), so both read the same tags out of the same text.
 */
export const TAG_MAX = 50;
/** Tags kept per review: the first ones written; the rest stay plain text. */
export const REVIEW_TAGS_MAX = 20;
/** A tag as a route parameter (`/tags/:tag`), without the `#`. */
export const TAG_PATTERN = new RegExp(`^[\\p{L}\\p{N}_]{1,${TAG_MAX}}$`, 'u');
export const TAG_MESSAGE = `tag must be 1-${TAG_MAX} letters, digits or underscores`;

/** A `#` not glued to a word before it (so `a#b` and `&#39;` are no tags), then the word. */
const IN_TEXT = new RegExp(`(^|[^\\p{L}\\p{N}_&#])#([\\p{L}\\p{N}_]{1,${TAG_MAX}})(?![\\p{L}\\p{N}_])`, 'gu');

/** The stored form: Turkish-aware lower case, so #Kahve, #KAHVE and #kahve are one tag (and #IĞDIR is ığdır). */
export function tagKey(tag: string): string {
  return tag.normalize('NFC').toLocaleLowerCase('tr');
}

/** One piece of a text: plain text, or a tag as written (`name`) with its stored form (`key`). */
export type TextPart = { text: string } | { text: string; name: string; key: string };

/** Splits a text into plain runs and `#tag`s, in order (the web renders the tags as links). */
export function splitTags(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const m of text.matchAll(IN_TEXT)) {
    const start = m.index + m[1].length;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: `#${m[2]}`, name: m[2], key: tagKey(m[2]) });
    last = start + 1 + m[2].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The distinct stored forms of a text's tags, in order of first use, at most REVIEW_TAGS_MAX. */
export function parseTags(text: string): string[] {
  const keys = splitTags(text).flatMap((p) => ('key' in p ? [p.key] : []));
  return [...new Set(keys)].slice(0, REVIEW_TAGS_MAX);
}
