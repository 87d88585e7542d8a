import { Inject, Injectable } from '@nestjs/common';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { FollowDoc, followsCollection, pairId } from './relation.collection';

/** Followers are read in pages this big when a review fans out. */
export const FOLLOWER_BATCH = 500;

/**
 * The follow graph (who gets a new_review), fed by social's events; the blocks are the shared
 * BlocksReadModel's. Every write is an upsert or a delete by key: safe to repeat.
 */
@Injectable()
export class RelationsService {
  private readonly follows: Collection<FollowDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.follows = store.collection(followsCollection);
  }

  async follow(followerId: string, followeeId: string): Promise<void> {
    await this.followAll([[followerId, followeeId]]);
  }

  /**
   * Follows (follower, followee) of a run of events: the pairs not stored yet go in one insert (a
   * follow's row holds nothing but its pair, so one already there is left as it is).
   */
  async followAll(pairs: readonly (readonly [string, string])[]): Promise<void> {
    const wanted = new Map(pairs.map(([follower_id, followee_id]) => [pairId(follower_id, followee_id), { follower_id, followee_id }]));
    // One row is inserted unless there (no error that undoes the unit): no need to look first.
    if (wanted.size > 1) {
      const stored = await this.follows.find({ _id: { $in: [...wanted.keys()] } }, { projection: { _id: 1 } });
      for (const doc of stored) wanted.delete(doc._id);
    }
    const docs = [...wanted].map(([_id, pair]) => ({ _id, ...pair }));
    try {
      await this.follows.insertMany(docs);
    } catch (err) {
      // Stored meanwhile by another delivery. Of many rows none went in (one statement), and the
      // unit they are part of is undone and runs again event by event.
      if (!(err instanceof DuplicateKeyError) || docs.length > 1) throw err;
    }
  }

  async unfollow(followerId: string, followeeId: string): Promise<void> {
    await this.follows.deleteOne({ _id: pairId(followerId, followeeId) });
  }

  /** A block ends any follow between the two, whichever way it went. */
  async unfollowEitherWay(a: string, b: string): Promise<void> {
    await this.follows.deleteMany({ _id: { $in: [pairId(a, b), pairId(b, a)] } });
  }

  /**
   * The follows of `userIds`' followers, a batch at a time, so a large audience never sits in
   * memory at once. In `_id` order, which starts with the follower: a follower's follows of several
   * of them come together.
   */
  async *followerBatches(userIds: readonly string[]): AsyncGenerator<FollowDoc[]> {
    const followees = [...new Set(userIds)];
    let after = '';
    for (;;) {
      const docs = await this.follows.find(
        { followee_id: followees.length === 1 ? followees[0] : { $in: followees }, _id: { $gt: after } },
        { sort: { _id: 1 }, limit: FOLLOWER_BATCH },
      );
      if (docs.length === 0) return;
      yield docs;
      if (docs.length < FOLLOWER_BATCH) return;
      after = docs[docs.length - 1]._id;
    }
  }
}
