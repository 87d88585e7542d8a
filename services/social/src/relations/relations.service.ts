import { Inject, Injectable } from '@nestjs/common';
import { FollowStatus, NO_FOLLOW_STATUS } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { BlockDoc, blocksCollection } from '../blocks/block.collection';
import { FollowDoc, followsCollection } from '../follows/follow.collection';

/** Read-only questions about the graph, shared by every feature (writes live in follows and blocks). */
@Injectable()
export class RelationsService {
  private readonly follows: Collection<FollowDoc>;
  private readonly blocks: Collection<BlockDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.follows = store.collection(followsCollection);
    this.blocks = store.collection(blocksCollection);
  }

  /**
   * Both directions of both relations (a profile page asks on every view): four lookups by unique
   * key, which the store's document cache answers, absent edges included.
   */
  async status(viewerId: string, targetId: string): Promise<FollowStatus> {
    if (viewerId === targetId) return { ...NO_FOLLOW_STATUS };
    const [out, back, blocking, blockedBy] = await Promise.all([
      this.follows.findOne({ follower_id: viewerId, followee_id: targetId }),
      this.follows.findOne({ follower_id: targetId, followee_id: viewerId }),
      this.blocks.findOne({ blocker_id: viewerId, blocked_id: targetId }),
      this.blocks.findOne({ blocker_id: targetId, blocked_id: viewerId }),
    ]);
    return {
      isFollowing: out?.status === 'following',
      isFollowed: back?.status === 'following',
      isPending: out?.status === 'pending',
      isBlocked: blocking !== null,
      isBlockedBy: blockedBy !== null,
    };
  }

  /** follow_status for many people at once (search, suggestions); callers have already hidden blocked ones. */
  async statusMany(viewerId: string, targetIds: string[]): Promise<Map<string, FollowStatus>> {
    const [out, back] = await Promise.all([
      this.follows.find({ follower_id: viewerId, followee_id: { $in: targetIds } }),
      this.follows.find({ follower_id: { $in: targetIds }, followee_id: viewerId, status: 'following' }),
    ]);
    const result = new Map(targetIds.map((id) => [id, { ...NO_FOLLOW_STATUS }]));
    for (const row of out) {
      const s = result.get(row.followee_id);
      if (s) Object.assign(s, { isFollowing: row.status === 'following', isPending: row.status === 'pending' });
    }
    for (const row of back) {
      const s = result.get(row.follower_id);
      if (s) s.isFollowed = true;
    }
    return result;
  }

  async isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    const row = await this.blocks.findOne({
      $or: [
        { blocker_id: a, blocked_id: b },
        { blocker_id: b, blocked_id: a },
      ],
    });
    return row !== null;
  }

  /** Which of `pairs` have a block between them, either way (one read for a batch of follows): their `pairKey`s. */
  async blockedPairs(pairs: readonly (readonly [string, string])[]): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const ids = [...new Set(pairs.flat())];
    const rows = await this.blocks.find({ blocker_id: { $in: ids }, blocked_id: { $in: ids } });
    const blocked = new Set(rows.map((b) => pairKey(b.blocker_id, b.blocked_id)));
    return new Set(pairs.filter(([a, b]) => blocked.has(pairKey(a, b)) || blocked.has(pairKey(b, a))).map(([a, b]) => pairKey(a, b)));
  }

  async isApprovedFollower(followerId: string, followeeId: string): Promise<boolean> {
    return (await this.follows.findOne({ follower_id: followerId, followee_id: followeeId, status: 'following' })) !== null;
  }

  /** Everyone the member blocked or is blocked by: hidden from each other everywhere. */
  async hiddenIds(userId: string): Promise<string[]> {
    const rows = await this.blocks.find({ $or: [{ blocker_id: userId }, { blocked_id: userId }] });
    return rows.map((r) => (r.blocker_id === userId ? r.blocked_id : r.blocker_id));
  }

  /** Ids the member follows; with `includePending`, requested ones too. */
  async followeeIds(userId: string, includePending = false): Promise<string[]> {
    const filter = includePending ? { follower_id: userId } : { follower_id: userId, status: 'following' };
    return (await this.follows.find(filter, { projection: { followee_id: 1 } })).map((r) => r.followee_id);
  }

  /** Friends are mutual follows: both directions accepted (docs/decisions/social.md). */
  async friendsCount(userId: string): Promise<number> {
    const following = await this.followeeIds(userId);
    if (following.length === 0) return 0;
    return this.follows.count({ follower_id: { $in: following }, followee_id: userId, status: 'following' });
  }

  /** Who, among the people the member follows, follows each candidate: People to Follow relevance. */
  async followedByFollowees(userId: string, excluded: string[], cap: number): Promise<Map<string, number>> {
    const following = await this.followeeIds(userId);
    const tally = new Map<string, number>();
    if (following.length === 0) return tally;
    const rows = await this.follows.find(
      { follower_id: { $in: following }, status: 'following', followee_id: { $nin: excluded } },
      { limit: cap, projection: { followee_id: 1 } },
    );
    for (const row of rows) tally.set(row.followee_id, (tally.get(row.followee_id) ?? 0) + 1);
    return tally;
  }
}

/** One ordered pair of members as a key. */
export const pairKey = (a: string, b: string): string => `${a}:${b}`;
