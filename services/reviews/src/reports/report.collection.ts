import { defineCollection } from '@app/store';

/** A member's report of a review, kept for moderators (no moderation UI yet). */
export interface ReportDoc {
  _id: string;
  review_id: string;
  reporter_id: string;
  /** Snapshot, so moderators can see whose reviews get reported. */
  review_author_id: string;
  reason: string | null;
  status: 'open';
  created_at: string;
}

export const reportsCollection = defineCollection<ReportDoc>('review_reports', [
  { fields: { review_id: 1, reporter_id: 1 }, unique: true },
  { fields: { status: 1 }, orderBy: { created_at: -1 } },
]);
