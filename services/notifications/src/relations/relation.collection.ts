import { defineCollection } from '@app/store';

/** One accepted follow, keyed `${follower_id}>${followee_id}` so repeats collapse into one document. */
export interface FollowDoc {
  _id: string;
  follower_id: string;
  followee_id: string;
}

/** One block, keyed `${blocker_id}>${blocked_id}`. */
export interface BlockDoc {
  _id: string;
  blocker_id: string;
  blocked_id: string;
}

export const followsCollection = defineCollection<FollowDoc>('follows', [{ fields: { followee_id: 1, _id: 1 } }]);

export const blocksCollection = defineCollection<BlockDoc>('blocks', [
  { fields: { blocker_id: 1 } },
  { fields: { blocked_id: 1 } },
]);

export const pairId = (from: string, to: string): string => `${from}>${to}`;
