import { FoldedKeysModule, ServiceDefinition } from '@app/platform';
import { blocksCollection } from './blocks/block.collection';
import { BlocksModule } from './blocks/blocks.module';
import { CountersModule } from './counters/counters.module';
import { DiscoveryModule } from './discovery/discovery.module';
import { followsCollection } from './follows/follow.collection';
import { FollowsModule } from './follows/follows.module';
import { ImportModule } from './import/import.module';
import { profilesCollection, profileSearchKey } from './profiles/profile.collection';
import { ProfilesModule } from './profiles/profiles.module';
import { mutesCollection } from './mutes/mute.collection';
import { MutesModule } from './mutes/mutes.module';
import { SettingsModule } from './settings/settings.module';
import { activitiesCollection } from './stats/activity.collection';
import { StatsModule } from './stats/stats.module';
import { SocialExport } from './export/social-export.controller';
import { ErasureModule } from './erasure/erasure.module';
import { LinkCardsModule } from './link-cards/link-cards.module';

/** services/social: profiles, settings, follows and requests, blocks, mutes, user search, stats (ARCHITECTURE §1). */
export const socialService: ServiceDefinition = {
  name: 'social',
  collections: [profilesCollection, followsCollection, blocksCollection, mutesCollection, activitiesCollection],
  imports: [SocialExport, ProfilesModule, SettingsModule, FollowsModule, ImportModule, BlocksModule, MutesModule, DiscoveryModule, StatsModule, CountersModule, ErasureModule, LinkCardsModule,
    FoldedKeysModule.backfill({ collection: profilesCollection, key: profileSearchKey })],
};
