/**
 * Keyword filter matching (issue 22 §2), pure so the reviews service and the web can share it.
 * Case- and diacritic-insensitive, Turkish included: İ/I/ı all fold to i, ş/ç/ğ/ö/ü to s/c/g/o/u.
 */

/** Lower case without marks; dotless ı and dotted İ fold to i before NFD strips the dot. */
export function foldText(text: string): string {
  return text
    .replace(/[İIı]/g, 'i')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` contains `phrase`; with `wholeWord` only where no letter or digit touches either end. */
export function matchesPhrase(text: string, phrase: string, wholeWord = false): boolean {
  const needle = foldText(phrase);
  if (!needle) return false;
  const haystack = foldText(text);
  if (!wholeWord) return haystack.includes(needle);
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(needle)}(?![\\p{L}\\p{N}])`, 'u').test(haystack);
}

export interface KeywordFilterRule {
  phrase: string;
  whole_word: boolean;
  expires_at: string | null;
}

/** An expiry at or before `now` ends the filter. */
export function isFilterActive(rule: Pick<KeywordFilterRule, 'expires_at'>, now: Date = new Date()): boolean {
  return rule.expires_at === null || Date.parse(rule.expires_at) > now.getTime();
}

/** The first active rule whose phrase the text contains, or undefined. */
export function firstMatchingFilter<R extends KeywordFilterRule>(text: string, rules: readonly R[], now: Date = new Date()): R | undefined {
  return rules.find((rule) => isFilterActive(rule, now) && matchesPhrase(text, rule.phrase, rule.whole_word));
}
