import { defineCollection } from '@app/store';

/**
 * An earlier version of a review, kept when its author edits it (issue 21 §3). The id is
 * `${review_id}:${version}`, so one version is stored once even if an edit is retried.
 */
export interface ReviewVersionDoc {
  _id: string;
  review_id: string;
  /** 1 is the review as first posted; each edit keeps the version it replaces. */
  version: number;
  content: string;
  rating: number | null;
  title: string;
  has_spoilers: boolean;
  /** When this version was written (the review's created_at or an earlier edit's time). */
  written_at: string;
  /** When the edit that replaced it was made. */
  edited_at: string;
}

export const reviewVersionsCollection = defineCollection<ReviewVersionDoc>('review_versions', [
  { fields: { review_id: 1 }, orderBy: { version: -1 } },
]);
