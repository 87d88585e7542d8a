import { HttpException, Inject, Injectable } from '@nestjs/common';
import { ConnectionRow, FollowState, PageWindow, RequestDirection } from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { BatchConflict } from '@app/platform';
import { Collection, DuplicateKeyError, Filter, newId, STORE, Store } from '@app/store';
import { ProfileDoc } from '../profiles/profile.collection';
import { ProfilesService, toCard, USER_NOT_FOUND } from '../profiles/profiles.service';
import { canViewContent, needsApproval } from '../relations/privacy';
import { pairKey, RelationsService } from '../relations/relations.service';
import { FollowDoc, followsCollection } from './follow.collection';
import { SocialException } from '../social.errors';

export const FOLLOW_TEXT = {
  following: 'You are now following this user',
  requested: 'Follow request sent',
  already: 'You are already following this user',
  self: 'You cannot follow yourself',
  blocked: 'You cannot follow this user',
  unfollowed: 'Unfollowed successfully',
  cancelled: 'Follow request cancelled',
  notFollowing: 'You are not following this user',
  accepted: 'Follow request accepted',
  rejected: 'Follow request rejected',
  requestNotFound: 'Follow request not found',
  followerRemoved: 'Follower removed',
  notAFollower: 'This user does not follow you',
  privateList: 'This account is private',
  hiddenList: 'This list is not available',
} as const;

export interface FollowOutcome {
  status: FollowState;
  message: string;
}

/** Where a follow comes from: made live (the route) or moved over by an import. */
export interface FollowOrigin {
  imported?: boolean;
}

/** Enough to outlast any realistic interleaving of one pair's concurrent writes. */
const MAX_ATTEMPTS = 5;

/**
 * Follow rows and the counters they move. Counter moves bracket row changes: raised before a
 * row becomes 'following', lowered after it stops being one, each only when the row change
 * really happened (the unique index and conditional updates decide), so counters are exact
 * once writes settle and never below 0 in between.
 */
@Injectable()
export class FollowsService {
  private readonly follows: Collection<FollowDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly profiles: ProfilesService,
    private readonly relations: RelationsService,
    private readonly bus: EventBus,
  ) {
    this.follows = store.collection(followsCollection);
  }

  /** `origin.imported`: an import's row (docs/decisions/import.md); its event says so, and nobody is emailed about it. */
  async follow(actorId: string, targetId: string, origin: FollowOrigin = {}): Promise<FollowOutcome> {
    if (actorId === targetId) throw new SocialException('CANNOT_FOLLOW_SELF', FOLLOW_TEXT.self);
    const target = await this.profiles.require(targetId);
    if (await this.relations.isBlockedEitherWay(actorId, targetId)) throw new SocialException('USER_BLOCKED', FOLLOW_TEXT.blocked);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const existing = await this.follows.findOne({ follower_id: actorId, followee_id: targetId });
      if (existing?.status === 'following') throw new SocialException('ALREADY_FOLLOWING', FOLLOW_TEXT.already);
      // A repeated request is answered as the first one was, without a second event.
      if (existing) return { status: 'pending', message: FOLLOW_TEXT.requested };
      const outcome = needsApproval(target.settings.privacy_profile)
        ? await this.insertRequest(actorId, targetId, origin)
        : await this.insertFollow(actorId, targetId, origin);
      if (outcome) return this.settleAfterInsert(actorId, targetId, outcome);
    }
    throw new SocialException('FOLLOW_CHANGED', 'The follow changed concurrently; please try again');
  }

  /**
   * `follow` for many pairs at once (the import), pair by pair in order with its rules and
   * replies: one read each of the targets, the blocks and the existing edges, one insert of the
   * rows with one of their events, the counters raised in one update each. What `follow`
   * re-checks after its insert (a block, a switch to public that landed meanwhile) is checked
   * once for the batch; finding one, or a row another writer inserted (a duplicate key), throws
   * BatchConflict or DuplicateKeyError, and the caller goes pair by pair.
   */
  async followMany(pairs: readonly { followerId: string; followeeId: string }[], origin: FollowOrigin = {}): Promise<(FollowOutcome | HttpException)[]> {
    const others = pairs.filter((p) => p.followerId !== p.followeeId);
    const [targets, blocked, existing] = await Promise.all([
      this.profiles.byIds([...new Set(others.map((p) => p.followeeId))]),
      this.relations.blockedPairs(others.map((p) => [p.followerId, p.followeeId] as const)),
      others.length
        ? this.follows.find({ follower_id: { $in: [...new Set(others.map((p) => p.followerId))] }, followee_id: { $in: [...new Set(others.map((p) => p.followeeId))] } })
        : [],
    ]);
    const edges = new Map(existing.map((row) => [pairKey(row.follower_id, row.followee_id), row.status]));
    const rows: FollowDoc[] = [];
    const outcomes = pairs.map(({ followerId, followeeId }): FollowOutcome | HttpException => {
      if (followerId === followeeId) return new SocialException('CANNOT_FOLLOW_SELF', FOLLOW_TEXT.self);
      const target = targets.get(followeeId);
      if (!target) return new SocialException('USER_NOT_FOUND', USER_NOT_FOUND);
      const key = pairKey(followerId, followeeId);
      if (blocked.has(key)) return new SocialException('USER_BLOCKED', FOLLOW_TEXT.blocked);
      const edge = edges.get(key);
      if (edge === 'following') return new SocialException('ALREADY_FOLLOWING', FOLLOW_TEXT.already);
      if (edge) return { status: 'pending', message: FOLLOW_TEXT.requested };
      const row = newRow(followerId, followeeId, needsApproval(target.settings.privacy_profile) ? 'pending' : 'following');
      edges.set(key, row.status);
      rows.push(row);
      return row.status === 'pending' ? { status: 'pending', message: FOLLOW_TEXT.requested } : { status: 'following', message: FOLLOW_TEXT.following };
    });
    if (rows.length === 0) return outcomes;
    const follows = rows.filter((row) => row.status === 'following');
    const events = rows.map((row) => edgeEvent(row.status === 'pending' ? 'follow.requested' : 'follow.created', row, row.follower_id, { _id: row._id }, origin));
    await this.bus.emitAllWith(events, async () => {
      await this.profiles.raiseMany('followers_count', tally(follows.map((row) => row.followee_id)));
      await this.profiles.raiseMany('following_count', tally(follows.map((row) => row.follower_id)));
      return this.follows.insertMany(rows);
    });
    await this.assertSettledInBatch(rows);
    return outcomes;
  }

  /** `settleAfterInsert` for a batch: a block between an inserted pair, or a requested account now public, sends the batch pair by pair. */
  private async assertSettledInBatch(rows: FollowDoc[]): Promise<void> {
    if ((await this.relations.blockedPairs(rows.map((row) => [row.follower_id, row.followee_id] as const))).size > 0) {
      throw new BatchConflict('a block landed meanwhile');
    }
    const requested = rows.filter((row) => row.status === 'pending').map((row) => row.followee_id);
    if (requested.length === 0) return;
    for (const target of (await this.profiles.byIds([...new Set(requested)])).values()) {
      if (!needsApproval(target.settings.privacy_profile)) throw new BatchConflict('a requested account went public meanwhile');
    }
  }

  /** DELETE /follows/users/{id}: ends a follow or cancels a pending request. */
  async unfollow(actorId: string, targetId: string): Promise<FollowOutcome> {
    const removed = await this.removeEdge(actorId, targetId);
    if (!removed) throw new SocialException('NOT_FOLLOWING', FOLLOW_TEXT.notFollowing);
    return { status: 'none', message: removed.status === 'pending' ? FOLLOW_TEXT.cancelled : FOLLOW_TEXT.unfollowed };
  }

  async accept(ownerId: string, requesterId: string): Promise<FollowOutcome> {
    if (!(await this.acceptRequest(requesterId, ownerId))) throw new SocialException('FOLLOW_REQUEST_NOT_FOUND', FOLLOW_TEXT.requestNotFound);
    return { status: 'following', message: FOLLOW_TEXT.accepted };
  }

  async reject(ownerId: string, requesterId: string): Promise<FollowOutcome> {
    if (!(await this.removeEdge(requesterId, ownerId, 'pending'))) throw new SocialException('FOLLOW_REQUEST_NOT_FOUND', FOLLOW_TEXT.requestNotFound);
    return { status: 'none', message: FOLLOW_TEXT.rejected };
  }

  /** DELETE /follows/followers/{id}: the owner drops a follower (or a pending request) without blocking. */
  async removeFollower(ownerId: string, followerId: string): Promise<FollowOutcome> {
    if (!(await this.removeEdge(followerId, ownerId))) throw new SocialException('NOT_A_FOLLOWER', FOLLOW_TEXT.notAFollower);
    return { status: 'none', message: FOLLOW_TEXT.followerRemoved };
  }

  /** An account switched to public: every waiting request becomes a follow. */
  async acceptAllPending(ownerId: string): Promise<number> {
    const pending = await this.follows.find({ followee_id: ownerId, status: 'pending' });
    let accepted = 0;
    for (const row of pending) if (await this.acceptRequest(row.follower_id, ownerId)) accepted++;
    return accepted;
  }

  /** A block ends follows and requests in both directions. */
  async severBothWays(a: string, b: string): Promise<void> {
    await this.removeEdge(a, b);
    await this.removeEdge(b, a);
  }

  async followers(ownerId: string, viewerId: string, window: PageWindow) {
    await this.assertCanSeeConnections(ownerId, viewerId);
    return this.connections({ followee_id: ownerId, status: 'following' }, 'follower_id', 'since', viewerId, window);
  }

  async following(ownerId: string, viewerId: string, window: PageWindow) {
    await this.assertCanSeeConnections(ownerId, viewerId);
    return this.connections({ follower_id: ownerId, status: 'following' }, 'followee_id', 'since', viewerId, window);
  }

  async requests(ownerId: string, direction: RequestDirection, window: PageWindow) {
    return direction === 'incoming'
      ? this.connections({ followee_id: ownerId, status: 'pending' }, 'follower_id', 'requested_at', ownerId, window)
      : this.connections({ follower_id: ownerId, status: 'pending' }, 'followee_id', 'requested_at', ownerId, window);
  }

  private async insertRequest(followerId: string, followeeId: string, origin: FollowOrigin): Promise<FollowOutcome | null> {
    const row = newRow(followerId, followeeId, 'pending');
    try {
      await this.bus.emitWith(edgeEvent('follow.requested', row, followerId, { _id: row._id }, origin), () => this.follows.insert(row));
    } catch (err) {
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
    return { status: 'pending', message: FOLLOW_TEXT.requested };
  }

  private async insertFollow(followerId: string, followeeId: string, origin: FollowOrigin): Promise<FollowOutcome | null> {
    const row = newRow(followerId, followeeId, 'following');
    await this.raiseCounters(followerId, followeeId);
    try {
      await this.bus.emitWith(edgeEvent('follow.created', row, followerId, { _id: row._id }, origin), () => this.follows.insert(row));
    } catch (err) {
      await this.lowerCounters(followerId, followeeId);
      if (err instanceof DuplicateKeyError) return null;
      throw err;
    }
    return { status: 'following', message: FOLLOW_TEXT.following };
  }

  /** Closes two races of the checks made before the insert: a block, or a switch to public, that landed meanwhile. */
  private async settleAfterInsert(followerId: string, followeeId: string, outcome: FollowOutcome): Promise<FollowOutcome> {
    if (await this.relations.isBlockedEitherWay(followerId, followeeId)) {
      await this.removeEdge(followerId, followeeId);
      throw new SocialException('USER_BLOCKED', FOLLOW_TEXT.blocked);
    }
    if (outcome.status === 'pending') {
      const target = await this.profiles.findById(followeeId);
      if (target && !needsApproval(target.settings.privacy_profile) && (await this.acceptRequest(followerId, followeeId))) {
        return { status: 'following', message: FOLLOW_TEXT.following };
      }
    }
    return outcome;
  }

  /** pending -> following, once: the conditional update decides who wins a race. */
  private async acceptRequest(followerId: string, followeeId: string): Promise<boolean> {
    const row = await this.follows.findOne({ follower_id: followerId, followee_id: followeeId, status: 'pending' });
    if (!row) return false;
    await this.raiseCounters(followerId, followeeId);
    const accepted = await this.bus.emitWith(
      edgeEvent('follow.accepted', row, followeeId, { _id: row._id, status: 'following' }),
      async () =>
        (await this.follows.updateOne(
          { _id: row._id, status: 'pending' },
          { $set: { status: 'following', since: new Date().toISOString() } },
        )).matched > 0,
    );
    if (!accepted) await this.lowerCounters(followerId, followeeId);
    return accepted;
  }

  /**
   * Deletes the row as it was read (status included), so a concurrent accept makes the delete
   * miss and the loop reads again; counters drop only for a deleted 'following' row.
   */
  private async removeEdge(followerId: string, followeeId: string, only?: FollowDoc['status']): Promise<FollowDoc | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const row = await this.follows.findOne({ follower_id: followerId, followee_id: followeeId });
      if (!row || (only && row.status !== only)) return null;
      const removed = await this.bus.emitWith(
        {
          type: 'follow.removed',
          payload: { followerId, followeeId, wasPending: row.status === 'pending' },
          key: followerId,
          actorId: null,
          proof: { collection: followsCollection, match: { _id: row._id }, present: false },
        },
        async () => {
          const deleted = await this.follows.deleteOne({ _id: row._id, status: row.status });
          if (deleted && row.status === 'following') await this.lowerCounters(followerId, followeeId);
          return deleted;
        },
      );
      if (!removed) continue;
      return row;
    }
    return null;
  }

  private async raiseCounters(followerId: string, followeeId: string): Promise<void> {
    await Promise.all([this.profiles.bump(followeeId, 'followers_count', 1), this.profiles.bump(followerId, 'following_count', 1)]);
  }

  private async lowerCounters(followerId: string, followeeId: string): Promise<void> {
    await Promise.all([this.profiles.bump(followeeId, 'followers_count', -1), this.profiles.bump(followerId, 'following_count', -1)]);
  }

  /** Followers and following of another account follow its privacy; blocks hide both ways. */
  private async assertCanSeeConnections(ownerId: string, viewerId: string): Promise<void> {
    const owner = await this.profiles.require(ownerId);
    if (ownerId === viewerId) return;
    const [blocked, approvedFollower] = await Promise.all([
      this.relations.isBlockedEitherWay(ownerId, viewerId),
      this.relations.isApprovedFollower(viewerId, ownerId),
    ]);
    if (blocked) throw new SocialException('FOLLOW_LIST_HIDDEN', FOLLOW_TEXT.hiddenList);
    if (!canViewContent(owner.settings.privacy_profile, { isSelf: false, blocked, approvedFollower })) {
      throw new SocialException('FOLLOW_LIST_PRIVATE', FOLLOW_TEXT.privateList);
    }
  }

  private async connections(
    base: Filter,
    otherSide: 'follower_id' | 'followee_id',
    dateField: 'since' | 'requested_at',
    viewerId: string,
    window: PageWindow,
  ): Promise<{ items: ConnectionRow[]; total: number }> {
    const hidden = await this.relations.hiddenIds(viewerId);
    const filter = hidden.length ? { ...base, [otherSide]: { $nin: hidden } } : base;
    const [rows, total] = await Promise.all([
      this.follows.find(filter, { sort: { [dateField]: -1, _id: -1 }, skip: window.skip, limit: window.limit }),
      this.follows.count(filter),
    ]);
    const people = await this.profiles.byIds(rows.map((r) => r[otherSide]));
    const items = rows.flatMap((r) => {
      const person = people.get(r[otherSide]);
      return person ? [toConnection(person, r[dateField] ?? r.requested_at)] : [];
    });
    return { items, total };
  }
}

function newRow(followerId: string, followeeId: string, status: FollowDoc['status']): FollowDoc {
  const now = new Date().toISOString();
  return {
    _id: newId(),
    follower_id: followerId,
    followee_id: followeeId,
    status,
    requested_at: now,
    since: status === 'following' ? now : null,
  };
}

/** How many times each id occurs. */
function tally(ids: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** A follow row's event, proven by the row as the change leaves it. */
function edgeEvent<T extends 'follow.requested' | 'follow.created' | 'follow.accepted'>(
  type: T,
  row: FollowDoc,
  actorId: string,
  match: Record<string, string>,
  origin: FollowOrigin = {},
): PlannedEvent<T> {
  return {
    type,
    payload: { followerId: row.follower_id, followeeId: row.followee_id, ...(origin.imported && { imported: true }) } as PlannedEvent<T>['payload'],
    key: row.follower_id,
    actorId,
    proof: { collection: followsCollection, match, present: true },
  };
}

export function toConnection(person: ProfileDoc, since: string): ConnectionRow {
  return { ...toCard(person), bio: person.bio, since };
}
