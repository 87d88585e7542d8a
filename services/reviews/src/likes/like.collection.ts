import { defineCollection } from '@app/store';

/** One row per (review, member): the unique index is the arbiter of every toggle. */
export interface LikeDoc {
  _id: string;
  review_id: string;
  user_id: string;
  created_at: string;
}

export const likesCollection = defineCollection<LikeDoc>('likes', [
  { fields: { review_id: 1, user_id: 1 }, unique: true },
  { fields: { review_id: 1 }, orderBy: { created_at: -1 } },
  { fields: { user_id: 1 } },
], { cacheById: 50_000 }); // a page's `liked` marks are lookups by (review, member), mostly of likes that do not exist
