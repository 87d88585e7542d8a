import { parseReportReason } from '@app/contracts/runtime';
import type { useT } from '../../shared/i18n';

/** A report's stored reason as a moderator reads it: the category in their language, then the reporter's note. */
export function reportReasonText(reason: string, t: ReturnType<typeof useT>): string {
  const { category, note } = parseReportReason(reason);
  if (!category) return note;
  const label = t(`report.${category}`);
  return note ? `${label}: ${note}` : label;
}
