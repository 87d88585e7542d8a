import { ReportStatus } from '@app/contracts';
import { defineCollection } from '@app/store';

/** A member's report of a review, kept for moderators (moderation/ reads and decides them). */
export interface ReportDoc {
  _id: string;
  review_id: string;
  reporter_id: string;
  /** Snapshot, so moderators can see whose reviews get reported. */
  review_author_id: string;
  reason: string | null;
  /** open until a moderator dismisses it or acts on the review (hide). */
  status: ReportStatus;
  created_at: string;
  decided_at?: string;
}

export const reportsCollection = defineCollection<ReportDoc>('review_reports', [
  { fields: { review_id: 1, reporter_id: 1 }, unique: true },
  { fields: { status: 1 }, orderBy: { created_at: -1 } },
]);
