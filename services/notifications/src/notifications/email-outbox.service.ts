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
    await this.queueMany([{ recipient, doc, view }]);
  }

  /** The emails of many new notifications in one insert (a fan-out, a run of events). */
  async queueMany(items: { recipient: Recipient; doc: NotificationDoc; view: NotificationView }[]): Promise<void> {
    const rows = items.filter(({ recipient, doc }) => recipient.emailOn && recipient.email && EMAIL_WORTHY.has(doc.type)).map(({ recipient, doc, view }) => {
      const actor = view.related_user?.display_name || view.related_user?.username || null;
      const { subject, body } = notificationEmail(recipient.language, recipient.display_name, doc.type, actor, doc.squad_name);
      return {
        _id: `${doc._id}:${doc.event_id}`,
        user_id: recipient.id,
        notification_id: doc._id,
        to: recipient.email as string,
        subject,
        body,
        created_at: new Date().toISOString(),
        sent_at: null,
      };
    });
    if (rows.length === 0) return;
    try {
      await this.outbox.insertMany(rows);
    } catch (err) {
      // Queued already by an earlier delivery of the same event. Of many rows none went in (one
      // statement), and the unit they are part of is undone and runs again event by event.
      if (!(err instanceof DuplicateKeyError) || rows.length > 1) throw err;
    }
  }
}
