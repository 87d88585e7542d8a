import { Inject, Injectable } from '@nestjs/common';
import { Collection, STORE, Store } from '@app/store';
import { blocksCollection } from '../blocks/block.collection';
import { FollowDoc, followsCollection } from '../follows/follow.collection';
import { mutesCollection } from '../mutes/mute.collection';
import { ProfileDoc, profilesCollection } from '../profiles/profile.collection';
import { activitiesCollection } from '../stats/activity.collection';

/**
 * Erases a deleted member from the social graph (issue 20 §5). Each step can run again after a
 * crash: the others' follow counters are recounted (set, not decremented) without the member's
 * rows while those rows still exist, then the rows go, then the profile, which goes last.
 */
@Injectable()
export class ErasureService {
  private readonly follows: Collection<FollowDoc>;
  private readonly profiles: Collection<ProfileDoc>;

  constructor(@Inject(STORE) private readonly store: Store) {
    this.follows = store.collection(followsCollection);
    this.profiles = store.collection(profilesCollection);
  }

  async erase(userId: string): Promise<void> {
    await this.eraseFollows(userId);
    await this.store.collection(blocksCollection).deleteMany({ $or: [{ blocker_id: userId }, { blocked_id: userId }] });
    await this.store.collection(mutesCollection).deleteMany({ $or: [{ muter_id: userId }, { muted_id: userId }] });
    await this.store.collection(activitiesCollection).deleteMany({ user_id: userId });
    await this.profiles.deleteOne({ _id: userId });
  }

  /** Follows both ways and pending requests; the counts of everyone on the other side are recounted first. */
  private async eraseFollows(userId: string): Promise<void> {
    const edges = { $or: [{ follower_id: userId }, { followee_id: userId }] };
    const rows = await this.follows.find(edges);
    const others = new Set(rows.map((row) => (row.follower_id === userId ? row.followee_id : row.follower_id)));
    for (const other of others) await this.recountWithout(other, userId);
    await this.follows.deleteMany(edges);
  }

  private async recountWithout(memberId: string, goneId: string): Promise<void> {
    const [followers_count, following_count] = await Promise.all([
      this.follows.count({ followee_id: memberId, status: 'following', follower_id: { $ne: goneId } }),
      this.follows.count({ follower_id: memberId, status: 'following', followee_id: { $ne: goneId } }),
    ]);
    await this.profiles.updateOne({ _id: memberId }, { $set: { followers_count, following_count } });
  }
}
