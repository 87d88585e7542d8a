import { defineCollection } from '@app/store';

/** Read model of the follow graph (accepted follows only), fed by follow.* and block.* events. */
export interface FollowEdgeDoc {
  _id: string;
  follower_id: string;
  followee_id: string;
  created_at: string;
}

/** Followers per member, moved only when an edge was really added or removed. */
export interface FollowerCountDoc {
  _id: string;
  follower_count: number;
}

export const followEdgesCollection = defineCollection<FollowEdgeDoc>('follow_edges', [
  { fields: { follower_id: 1, followee_id: 1 }, unique: true },
  { fields: { followee_id: 1 } },
]);

export const followerCountsCollection = defineCollection<FollowerCountDoc>('follower_counts', [
  { fields: { follower_count: -1 } },
]);
