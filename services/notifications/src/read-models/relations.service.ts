import { Inject, Injectable } from '@nestjs/common';
import { Collection, STORE, Store } from '@app/store';
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
    await this.follows.updateOne(
      { _id: pairId(followerId, followeeId) },
      { $set: { follower_id: followerId, followee_id: followeeId } },
      { upsert: true },
    );
  }

  async unfollow(followerId: string, followeeId: string): Promise<void> {
    await this.follows.deleteOne({ _id: pairId(followerId, followeeId) });
  }

  /** A block ends any follow between the two, whichever way it went. */
  async unfollowEitherWay(a: string, b: string): Promise<void> {
    await this.follows.deleteMany({ _id: { $in: [pairId(a, b), pairId(b, a)] } });
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
