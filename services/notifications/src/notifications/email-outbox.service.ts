import { Inject, Injectable } from '@nestjs/common';
import { NotificationView } from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { Recipient } from '../read-models/members.service';
import { NotificationDoc } from './notification.collection';
import { EMAIL_WORTHY, notificationEmail } from './notification-text';
import { EmailOutboxDoc, emailOutboxCollection } from './email-outbox.collection';

/** notification_email: queues the email of a new notification, in the recipient's language, for whoever wants emails. */
@Injectable()
export class EmailOutbox {
  private readonly outbox: Collection<EmailOutboxDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.outbox = store.collection(emailOutboxCollection);
  }

  async queue(recipient: Recipient, doc: NotificationDoc, view: NotificationView): Promise<void> {
    if (!recipient.emailOn || !recipient.email || !EMAIL_WORTHY.has(doc.type)) return;
    const actor = view.related_user?.display_name || view.related_user?.username || null;
    const { subject, body } = notificationEmail(recipient.language, recipient.display_name, doc.type, actor, doc.squad_name);
    try {
      await this.outbox.insert({
        _id: `${doc._id}:${doc.event_id}`,
        user_id: recipient.id,
        notification_id: doc._id,
        to: recipient.email,
        subject,
        body,
        created_at: new Date().toISOString(),
        sent_at: null,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }
}
