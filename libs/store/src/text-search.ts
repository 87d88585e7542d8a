/**
 * The one text folding both engines search with (docs/decisions/store.md): Turkish dotted and
 * dotless i first (JavaScript's toLowerCase turns İ into "i̇" and leaves ı alone), then lower
 * case, then every combining mark dropped (ş → s, é → e). Indexed text and query words go through it.
 */
export function foldText(text: string): string {
  return text
    .replace(/[İIı]/g, 'i')
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** The words of a query, folded: runs of letters and digits (what FTS5's unicode61 tokenizer keeps). */
export function searchWords(query: string): string[] {
  return foldText(query).match(/[\p{L}\p{N}]+/gu) ?? [];
}
