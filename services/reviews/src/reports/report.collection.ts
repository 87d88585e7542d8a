import { ReportStatus } from '@app/contracts';
import { defineCollection } from '@app/store';

/** A member's report of a review or of a comment, kept for moderators (moderation/ reads and decides them). */
export interface ReportDoc {
  _id: string;
  /** The reported review, or the review the reported comment is on. */
  review_id: string;
  /** The reported comment; '' for a review report (one value, so the unique index holds for both kinds). */
  comment_id?: string;
  reporter_id: string;
  /** Snapshot, so moderators can see whose content gets reported: the review's or the comment's author. */
  review_author_id: string;
  reason: string | null;
  /** open until a moderator dismisses it or acts on the review (hide). */
  status: ReportStatus;
  created_at: string;
  decided_at?: string;
}

export const reportsCollection = defineCollection<ReportDoc>('review_reports', [
  { fields: { review_id: 1, comment_id: 1, reporter_id: 1 }, unique: true },
  { fields: { status: 1 }, orderBy: { created_at: -1 } },
]);
