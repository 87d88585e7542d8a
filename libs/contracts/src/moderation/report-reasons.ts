/**
 * Why a member reports a review or comment. The stored `reason` stays free text (up to
 * REPORT_REASON_MAX): the web sends a category code, optionally followed by ": " and the member's
 * note, so moderators read the category in their own language and the note as written.
 */
export const REPORT_REASON_MAX = 500;

export const REPORT_CATEGORIES = ['spam', 'harassment', 'spoiler', 'other'] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

const SEPARATOR = ': ';

/** The longest note that fits beside any category. */
export const REPORT_NOTE_MAX = REPORT_REASON_MAX - Math.max(...REPORT_CATEGORIES.map((c) => c.length)) - SEPARATOR.length;

export function composeReportReason(category: ReportCategory, note: string): string {
  const text = note.trim();
  return (text ? `${category}${SEPARATOR}${text}` : category).slice(0, REPORT_REASON_MAX);
}

/** A stored reason split back; reasons stored before categories (or sent by other clients) come back as a note. */
export function parseReportReason(reason: string | null): { category: ReportCategory | null; note: string } {
  if (!reason) return { category: null, note: '' };
  const category = REPORT_CATEGORIES.find((c) => reason === c || reason.startsWith(`${c}${SEPARATOR}`)) ?? null;
  return category ? { category, note: reason.slice(category.length + SEPARATOR.length) } : { category: null, note: reason };
}
