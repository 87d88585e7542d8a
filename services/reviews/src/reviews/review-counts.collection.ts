import { defineCollection } from '@app/store';

/**
 * A review's counters, kept apart from the review: a like or a comment rewrites this small row,
 * not the review with its text and its five index entries, and the review stays in the document
 * cache (docs/decisions/store.md). No row: both counters are 0.
 */
export interface ReviewCountsDoc {
  /** The review's id. */
  _id: string;
  like_count?: number;
  comment_count?: number;
}

export type ReviewCounter = 'like_count' | 'comment_count';

export const reviewCountsCollection = defineCollection<ReviewCountsDoc>('review_counts', [], { cacheById: 20_000 });
