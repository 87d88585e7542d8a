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
   * For each of `follows`, in order, true when this call created the edge (a replayed event gets
   * false). `at` is the event's occurredAt: a follow older than the last change applied to the pair
   * (a removal that overtook it) changes nothing (versioned relations, issue 46). The versions and
   * edges cost a read and an insert each for the lot, the counts an update for the lot (and an insert of the first ones).
   */
  async addMany(follows: ReadonlyArray<{ followerId: string; followeeId: string; at?: string }>): Promise<boolean[]> {
    const versioned = follows.flatMap((f, i) => (f.at && f.followerId !== f.followeeId ? [i] : []));
    const claims = await this.versions.claimMany('follow', versioned.map((i) => ({ a: follows[i].followerId, b: follows[i].followeeId, at: follows[i].at! })));
    const refused = new Set(versioned.filter((_, j) => !claims[j]));
    const added = await this.insertEdges(follows.map((f, i) => (f.followerId !== f.followeeId && !refused.has(i) ? f : null)));
    const gained = new Map<string, number>();
    follows.forEach((f, i) => added[i] && gained.set(f.followeeId, (gained.get(f.followeeId) ?? 0) + 1));
    await this.raiseCounts(gained);
    return added;
  }

  /**
   * Adds `n` to each followee's count: one update for the rows there, one insert for the followees
   * counted for the first time (an upsert each if one of those rows appeared meanwhile).
   */
  private async raiseCounts(gained: ReadonlyMap<string, number>): Promise<void> {
    if (gained.size === 0) return;
    if ((await this.counts.incrementEach([...gained].map(([id, n]) => ({ id, inc: { follower_count: n } })))) === gained.size) return;
    const counted = new Set((await this.counts.find({ _id: { $in: [...gained.keys()] } }, { projection: { _id: 1 } })).map((d) => d._id));
    const fresh = [...gained].filter(([id]) => !counted.has(id));
    try {
      await this.counts.insertMany(fresh.map(([id, n]) => ({ _id: id, follower_count: n })));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err; // none went in
      for (const [id, n] of fresh) await this.counts.updateOne({ _id: id }, { $inc: { follower_count: n } }, { upsert: true });
    }
  }

  /** Inserts the edges not there yet (null: none to insert); true where this call created one. */
  private async insertEdges(pairs: ReadonlyArray<{ followerId: string; followeeId: string } | null>): Promise<boolean[]> {
    const wanted = pairs.filter((p) => p !== null);
    if (wanted.length === 0) return pairs.map(() => false);
    const there = await this.edges.find(
      { follower_id: { $in: [...new Set(wanted.map((p) => p.followerId))] }, followee_id: { $in: [...new Set(wanted.map((p) => p.followeeId))] } },
      { projection: { follower_id: 1, followee_id: 1 } },
    );
    const taken = new Set(there.map((e) => `${e.follower_id} ${e.followee_id}`));
    const created = pairs.map((p) => {
      const key = p && `${p.followerId} ${p.followeeId}`;
      if (!key || taken.has(key)) return false;
      taken.add(key); // the same pair twice here: the first creates it
      return true;
    });
    const created_at = new Date().toISOString();
    const edges = pairs.flatMap((p, i) => (created[i] ? [{ follower_id: p!.followerId, followee_id: p!.followeeId, created_at }] : []));
    try {
      await this.edges.insertMany(edges);
      return created;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    // Another delivery inserted one meanwhile: each on its own.
    const alone: boolean[] = [];
    for (const [i, p] of pairs.entries()) alone.push(created[i] && (await this.insertEdge(p!.followerId, p!.followeeId)));
    return alone;
  }

  private async insertEdge(followerId: string, followeeId: string): Promise<boolean> {
    try {
      await this.edges.insert({ follower_id: followerId, followee_id: followeeId, created_at: new Date().toISOString() });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** True when this call removed the edge; `at` as for `addMany` (the version stays as the removal's tombstone). */
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

  /** The followers of each of `userIds` (absent: none), in one query. */
  async followersOfEach(userIds: readonly string[]): Promise<Map<string, string[]>> {
    const followers = new Map<string, string[]>();
    if (userIds.length === 0) return followers;
    for (const e of await this.edges.find({ followee_id: { $in: [...userIds] } }, { projection: { follower_id: 1, followee_id: 1 } })) {
      const of = followers.get(e.followee_id);
      if (of) of.push(e.follower_id);
      else followers.set(e.followee_id, [e.follower_id]);
    }
    return followers;
  }

  /** The follower counts of `userIds` (absent: none), in one query. */
  async followerCounts(userIds: readonly string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    return new Map((await this.counts.find({ _id: { $in: [...userIds] } })).map((d) => [d._id, d.follower_count]));
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
