import { BlocksModule, blocksCollection, relationVersionsCollection, FoldedKeysModule, ServiceDefinition, userCardsCollection, UserCardsModule } from '@app/platform';
import { joinRequestsCollection } from './join-requests/join-request.collection';
import { JoinRequestsModule } from './join-requests/join-requests.module';
import { membersCollection } from './members/member.collection';
import { MembersModule } from './members/members.module';
import { squadsCollection, squadSearchKey } from './squads/squad.collection';
import { SquadsModule } from './squads/squads.module';
import { SquadsExport } from './export/squads-export.controller';
import { ErasureModule } from './erasure/erasure.module';
import { weekActivityCollection } from './read-models/week-activity.collection';

/** services/squads: squads, members, roles, join requests (/api/squads/*). */
export const squadsService: ServiceDefinition = {
  name: 'squads',
  collections: [squadsCollection, membersCollection, joinRequestsCollection, userCardsCollection, blocksCollection, relationVersionsCollection, weekActivityCollection],
  // SquadsModule first: its fixed paths (/squads/stats...) must be routed before the others' `:id` routes.
  imports: [
    SquadsExport,
    SquadsModule,
    MembersModule,
    JoinRequestsModule,
    UserCardsModule.forRoot({ placeholder: { username: 'unknown', display_name: 'Unknown member' } }),
    BlocksModule,
    ErasureModule,
    FoldedKeysModule.backfill({ collection: squadsCollection, key: squadSearchKey }),
  ],
};
