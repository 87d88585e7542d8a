import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { CounterRepairPass, CountersFixed, fixCounters, PLATFORM_CONFIG, PlatformConfig, SERVICE_LOGGER } from '@app/platform';
import { Collection, STORE, Store } from '@app/store';
import { FollowDoc, followsCollection } from '../follows/follow.collection';
import { ProfileDoc, profilesCollection } from '../profiles/profile.collection';

/**
 * The profile's follow counters, recomputed from the follow rows as FollowsService moves them:
 * followers_count counts the rows with `followee_id` = the member and status 'following',
 * following_count the rows with `follower_id` = the member and status 'following' (pending
 * requests count in neither). FollowsService raises a counter before the row exists, so a crash
 * there leaves it one too high; one after a row is deleted leaves it one too high as well.
 * The store counts the rows (`countBy`: on SQLite a GROUP BY read from the (followee_id, status)
 * and (follower_id, status) indexes); only the profiles are read, with a projection.
 */
@Injectable()
export class SocialCountersRepair extends CounterRepairPass {
  private readonly follows: Collection<FollowDoc>;
  private readonly profiles: Collection<ProfileDoc>;

  constructor(@Inject(STORE) store: Store, @Inject(PLATFORM_CONFIG) config: PlatformConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super(config, logger, store);
    this.follows = store.collection(followsCollection);
    this.profiles = store.collection(profilesCollection);
  }

  async repair(): Promise<CountersFixed> {
    const followers = await this.follows.countBy({ status: 'following' }, 'followee_id');
    const following = await this.follows.countBy({ status: 'following' }, 'follower_id');
    const profiles = await this.profiles.find({}, { projection: { followers_count: 1, following_count: 1 } });
    return {
      'profiles.followers_count': await fixCounters(this.profiles, profiles, ['followers_count'], (d) => followers.get(d._id) ?? 0),
      'profiles.following_count': await fixCounters(this.profiles, profiles, ['following_count'], (d) => following.get(d._id) ?? 0),
    };
  }
}
