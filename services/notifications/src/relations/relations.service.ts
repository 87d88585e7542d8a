import { Inject, Injectable } from '@nestjs/common';
import { Collection, STORE, Store } from '@app/store';
import { BlockDoc, blocksCollection, FollowDoc, followsCollection, pairId } from './relation.collection';

/** Followers are read in pages this big when a review fans out. */
export const FOLLOWER_BATCH = 500;

/**
 * The follow graph (who gets a new_review) and the blocks (who must not hear from whom),
 * fed by social's events. Every write is an upsert or a delete by key: safe to repeat.
 */
@Injectable()
export class RelationsService {
  private readonly follows: Collection<FollowDoc>;
  private readonly blocks: Collection<BlockDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.follows = store.collection(followsCollection);
    this.blocks = store.collection(blocksCollection);
  }

  async follow(followerId: string, followeeId: string): Promise<void> {
    await this.follows.updateOne(
      { _id: pairId(followerId, followeeId) },
      { $set: { follower_id: followerId, followee_id: followeeId } },
      { upsert: true },
    );
  }

  async unfollow(followerId: string, followeeId: string): Promise<void> {
    await this.follows.deleteOne({ _id: pairId(followerId, followeeId) });
  }

  /** A block also ends any follow between the two, whichever way it went. */
  async block(blockerId: string, blockedId: string): Promise<void> {
    await this.blocks.updateOne(
      { _id: pairId(blockerId, blockedId) },
      { $set: { blocker_id: blockerId, blocked_id: blockedId } },
      { upsert: true },
    );
    await this.follows.deleteMany({ _id: { $in: [pairId(blockerId, blockedId), pairId(blockedId, blockerId)] } });
  }

  async unblock(blockerId: string, blockedId: string): Promise<void> {
    await this.blocks.deleteOne({ _id: pairId(blockerId, blockedId) });
  }

  async isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    return (await this.blocks.count({ _id: { $in: [pairId(a, b), pairId(b, a)] } })) > 0;
  }

  /** Of `others`, those who blocked `userId` or whom `userId` blocked. */
  async blockedAmong(userId: string, others: string[]): Promise<Set<string>> {
    if (others.length === 0) return new Set();
    const ids = others.flatMap((other) => [pairId(userId, other), pairId(other, userId)]);
    const docs = await this.blocks.find({ _id: { $in: ids } });
    return new Set(docs.map((d) => (d.blocker_id === userId ? d.blocked_id : d.blocker_id)));
  }

  /** The followers of `userId`, a batch at a time, so a large audience never sits in memory at once. */
  async *followerBatches(userId: string): AsyncGenerator<string[]> {
    let after = '';
    for (;;) {
      const docs = await this.follows.find(
        { followee_id: userId, _id: { $gt: after } },
        { sort: { _id: 1 }, limit: FOLLOWER_BATCH },
      );
      if (docs.length === 0) return;
      yield docs.map((d) => d.follower_id);
      if (docs.length < FOLLOWER_BATCH) return;
      after = docs[docs.length - 1]._id;
    }
  }
}
