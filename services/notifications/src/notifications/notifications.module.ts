import { Module } from '@nestjs/common';
import { MailModule } from '@app/platform';
import { MembersModule } from '../read-models/members.module';
import { RelationsModule } from '../read-models/relations.module';
import { emailOutboxCollection } from './email-outbox.collection';
import { EmailOutbox } from './email-outbox.service';
import { NotificationsController } from './notifications.controller';
import { NotificationEvents } from './notifications.events';
import { NotificationsService } from './notifications.service';
import { Notifier } from './notifier.service';

@Module({
  imports: [MembersModule, RelationsModule, MailModule.forOutbox(emailOutboxCollection)],
  controllers: [NotificationsController, NotificationEvents],
  providers: [NotificationsService, Notifier, EmailOutbox],
  // The erasure feature deletes a deleted member's mail files through the same worker.
  exports: [MailModule],
})
export class NotificationsModule {}
