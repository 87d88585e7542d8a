import { Inject, Injectable } from '@nestjs/common';
import { RelationVersions } from '@app/platform';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import {
  FollowEdgeDoc,
  followEdgesCollection,
  FollowerCountDoc,
  followerCountsCollection,
} from './follow-graph.collection';

@Injectable()
export class FollowGraphService {
  private readonly edges: Collection<FollowEdgeDoc>;
  private readonly counts: Collection<FollowerCountDoc>;
  private readonly versions: RelationVersions;

  constructor(@Inject(STORE) store: Store) {
    this.edges = store.collection(followEdgesCollection);
    this.counts = store.collection(followerCountsCollection);
    this.versions = new RelationVersions(store);
  }

  /**
   * True when this call created the edge (a replayed event returns false). `at` is the event's
   * occurredAt: a follow older than the last change applied to the pair (a removal that overtook
   * it) changes nothing (versioned relations, issue 46).
   */
  async add(followerId: string, followeeId: string, at?: string): Promise<boolean> {
    if (followerId === followeeId) return false;
    if (at && !(await this.versions.claim('follow', followerId, followeeId, at))) return false;
    try {
      await this.edges.insert({ follower_id: followerId, followee_id: followeeId, created_at: new Date().toISOString() });
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
    await this.counts.updateOne({ _id: followeeId }, { $inc: { follower_count: 1 } }, { upsert: true });
    return true;
  }

  /** True when this call removed the edge; `at` as for `add` (the version stays as the removal's tombstone). */
  async remove(followerId: string, followeeId: string, at?: string): Promise<boolean> {
    if (at && !(await this.versions.claim('follow', followerId, followeeId, at))) return false;
    if ((await this.edges.deleteOne({ follower_id: followerId, followee_id: followeeId })) === 0) return false;
    await this.counts.updateOne({ _id: followeeId, follower_count: { $gte: 1 } }, { $inc: { follower_count: -1 } });
    return true;
  }

  async followers(userId: string): Promise<string[]> {
    return (await this.edges.find({ followee_id: userId }, { projection: { follower_id: 1 } })).map((e) => e.follower_id);
  }

  async followees(userId: string): Promise<string[]> {
    return (await this.edges.find({ follower_id: userId }, { projection: { followee_id: 1 } })).map((e) => e.followee_id);
  }

  async follows(followerId: string, followeeId: string): Promise<boolean> {
    return (await this.edges.findOne({ follower_id: followerId, followee_id: followeeId })) !== null;
  }

  /** Which of these members the follower follows. */
  async followedAmong(followerId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const edges = await this.edges.find(
      { follower_id: followerId, followee_id: { $in: userIds } },
      { projection: { followee_id: 1 } },
    );
    return edges.map((e) => e.followee_id);
  }

  async followerCount(userId: string): Promise<number> {
    return (await this.counts.findById(userId))?.follower_count ?? 0;
  }

  /** Which of these members have at least `threshold` followers. */
  async large(userIds: string[], threshold: number): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const docs = await this.counts.find({ _id: { $in: userIds }, follower_count: { $gte: threshold } });
    return new Set(docs.map((d) => d._id));
  }
}
