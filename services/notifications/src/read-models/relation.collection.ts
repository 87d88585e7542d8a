import { defineCollection } from '@app/store';

/** One accepted follow, keyed `${follower_id}>${followee_id}` so repeats collapse into one document. */
export interface FollowDoc {
  _id: string;
  follower_id: string;
  followee_id: string;
}

export const followsCollection = defineCollection<FollowDoc>('follows', [{ fields: { followee_id: 1 }, orderBy: { _id: 1 } }]);

export const pairId = (from: string, to: string): string => `${from}>${to}`;
