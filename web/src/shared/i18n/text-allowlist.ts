/**
 * Texts the component scan (hardcoded-texts.test.ts) lets through, per file under web/src: names that are
 * the same in every language (brands). Every other text comes from en.ts and tr.ts.
 */
export const SAME_IN_EVERY_LANGUAGE: Record<string, readonly string[]> = {
  'features/reviews/ReviewShareMenu.tsx': ['Twitter', 'Facebook', 'LinkedIn'],
};
