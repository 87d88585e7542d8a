import { Inject, Injectable } from '@nestjs/common';
import { MailOutboxWorker } from '@app/platform';
import { Collection, STORE, Store } from '@app/store';
import { EmailOutboxDoc, emailOutboxCollection } from '../notifications/email-outbox.collection';
import { NotificationDoc, notificationsCollection } from '../notifications/notification.collection';
import { followsCollection } from '../read-models/relation.collection';

/**
 * Erases a deleted member's notifications (issue 20 §5): those they received and those they
 * caused for others, with their queued emails (first, so a rerun after a crash still finds
 * them through the notifications), and their follows in the relations read model. Unread
 * counts are counted from the rows, so they are exact once the rows are gone. The card with
 * the email address becomes a tombstone in the shared UserCardsReadModel. Mail files sent to
 * them (DATA_DIR/mail) are deleted too.
 */
@Injectable()
export class ErasureService {
  private readonly notifications: Collection<NotificationDoc>;
  private readonly emails: Collection<EmailOutboxDoc>;

  constructor(
    @Inject(STORE) private readonly store: Store,
    private readonly mail: MailOutboxWorker,
  ) {
    this.notifications = store.collection(notificationsCollection);
    this.emails = store.collection(emailOutboxCollection);
  }

  async erase(userId: string): Promise<void> {
    const theirs = { $or: [{ recipient_id: userId }, { actor_id: userId }] };
    const ids = (await this.notifications.find(theirs, { projection: { _id: 1 } })).map((doc) => doc._id);
    // The files of mails sent to them, before the rows that name the address go.
    await this.mail.forgetSentTo((await this.emails.find({ user_id: userId }, { projection: { to: 1 } })).map((m) => m.to));
    if (ids.length > 0) await this.emails.deleteMany({ notification_id: { $in: ids } });
    await this.emails.deleteMany({ user_id: userId });
    await this.notifications.deleteMany(theirs);
    await this.store.collection(followsCollection).deleteMany({ $or: [{ follower_id: userId }, { followee_id: userId }] });
  }
}
