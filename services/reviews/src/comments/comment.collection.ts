import { defineCollection, Filter } from '@app/store';

export interface CommentDoc {
  _id: string;
  review_id: string;
  user_id: string;
  content: string;
  created_at: string;
  /** When its author last edited it; absent until then. */
  edited_at?: string;
  /** Since when a moderator has hid it (issue 22 §3): out of every listing and of comment_count. */
  hidden_at?: string;
}

/** The comments listed and counted in a review's comment_count. */
export const COMMENT_NOT_HIDDEN: Filter = { hidden_at: { $exists: false } };

export const commentsCollection = defineCollection<CommentDoc>('comments', [
  { fields: { review_id: 1 }, orderBy: { created_at: 1 } },
]);
