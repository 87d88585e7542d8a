import { defineCollection } from '@app/store';

export interface CommentDoc {
  _id: string;
  review_id: string;
  user_id: string;
  content: string;
  created_at: string;
  /** When its author last edited it; absent until then. */
  edited_at?: string;
}

export const commentsCollection = defineCollection<CommentDoc>('comments', [
  { fields: { review_id: 1 }, orderBy: { created_at: 1 } },
]);
