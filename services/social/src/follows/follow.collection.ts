import { defineCollection } from '@app/store';

export type FollowRowStatus = 'following' | 'pending';

/**
 * One edge of the graph. The unique (follower_id, followee_id) index is the arbiter of
 * concurrent follows: counters move only when an insert, flip or delete really happened.
 */
export interface FollowDoc {
  _id: string;
  follower_id: string;
  followee_id: string;
  status: FollowRowStatus;
  requested_at: string;
  /** When the follow became active (at once for public accounts, on acceptance otherwise). */
  since: string | null;
}

export const followsCollection = defineCollection<FollowDoc>('follows', [
  { fields: { follower_id: 1, followee_id: 1 }, unique: true },
  { fields: { followee_id: 1, status: 1 } },
  { fields: { follower_id: 1, status: 1 } },
], { cacheById: 20_000 }); // a profile page looks the edge up both ways
