import { ServiceDefinition } from '@app/platform';
import { MembersModule } from './members/members.module';
import { membersCollection } from './members/member.collection';
import { emailOutboxCollection } from './notifications/email-outbox.collection';
import { notificationsCollection } from './notifications/notification.collection';
import { NotificationsModule } from './notifications/notifications.module';
import { blocksCollection, followsCollection } from './relations/relation.collection';
import { RelationsModule } from './relations/relations.module';

/** services/notifications: notifications from events, unread counts (/api/notifications/*). */
export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  collections: [notificationsCollection, emailOutboxCollection, membersCollection, followsCollection, blocksCollection],
  imports: [MembersModule, RelationsModule, NotificationsModule],
};
