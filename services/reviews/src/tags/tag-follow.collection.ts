import { defineCollection } from '@app/store';

/** A member following a tag (issue 21 §6); `_id` is `${user_id}:${tag}`, so a repeated follow finds it stored. */
export interface TagFollowDoc {
  _id: string;
  user_id: string;
  /** The stored (lower-case) form. */
  tag: string;
  created_at: string;
}

export const tagFollowsCollection = defineCollection<TagFollowDoc>('tag_follows', [{ fields: { user_id: 1 } }]);
