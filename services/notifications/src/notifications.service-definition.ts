import { BlocksModule, blocksCollection, relationVersionsCollection, MutesModule, mutesCollection, ServiceDefinition, UserCardsModule } from '@app/platform';
import { MembersModule } from './read-models/members.module';
import { membersCollection } from './read-models/member.collection';
import { registrationFields } from './read-models/members.service';
import { emailOutboxCollection } from './notifications/email-outbox.collection';
import { notificationsCollection } from './notifications/notification.collection';
import { decidedRequestsCollection } from './notifications/decided-request.collection';
import { NotificationsModule } from './notifications/notifications.module';
import { followsCollection } from './read-models/relation.collection';
import { RelationsModule } from './read-models/relations.module';
import { ErasureModule } from './erasure/erasure.module';
import { NotificationsExport } from './export/notifications-export.controller';

/** services/notifications: notifications from events, unread counts (/api/notifications/*). */
export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  collections: [notificationsCollection, decidedRequestsCollection, emailOutboxCollection, membersCollection, followsCollection, blocksCollection, mutesCollection, relationVersionsCollection],
  imports: [
    NotificationsExport,
    // The cards stay in `members`, beside each member's email and preferences; a registration
    // writes the card and the email (and language) as one row.
    UserCardsModule.forRoot({ collection: membersCollection, registration: registrationFields }),
    BlocksModule,
    MutesModule,
    MembersModule,
    RelationsModule,
    NotificationsModule,
    ErasureModule,
  ],
};
