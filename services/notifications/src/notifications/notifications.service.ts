import { Inject, Injectable } from '@nestjs/common';
import { NotificationView } from '@app/contracts';
import { Collection, Filter, STORE, Store } from '@app/store';
import { MembersService } from '../read-models/members.service';
import { NotificationDoc, notificationsCollection } from './notification.collection';
import { toNotificationView } from './notification.view';
import { NotificationsException } from '../notifications.errors';

const NOT_FOUND = 'Notification not found';

export interface NotificationPage {
  items: NotificationView[];
  total: number;
  unread: number;
}

/** A member's own notifications: reading and tidying them. Someone else's answer 404, as if absent. */
@Injectable()
export class NotificationsService {
  private readonly notifications: Collection<NotificationDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly members: MembersService,
  ) {
    this.notifications = store.collection(notificationsCollection);
  }

  async list(userId: string, skip: number, limit: number, unreadOnly: boolean): Promise<NotificationPage> {
    const filter: Filter = unreadOnly ? { recipient_id: userId, is_read: false } : { recipient_id: userId };
    const [docs, total, unread] = await Promise.all([
      this.notifications.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.notifications.count(filter),
      this.unreadCount(userId),
    ]);
    return { items: await this.views(userId, docs), total, unread };
  }

  unreadCount(userId: string): Promise<number> {
    return this.notifications.count({ recipient_id: userId, is_read: false });
  }

  async markRead(userId: string, id: string): Promise<NotificationView> {
    const doc = await this.notifications.findOneAndUpdate({ _id: id, recipient_id: userId }, { $set: { is_read: true } });
    if (!doc) throw new NotificationsException('NOTIFICATION_NOT_FOUND', NOT_FOUND);
    const [view] = await this.views(userId, [doc]);
    return view;
  }

  async markAllRead(userId: string): Promise<number> {
    const res = await this.notifications.updateMany({ recipient_id: userId, is_read: false }, { $set: { is_read: true } });
    return res.modified;
  }

  async remove(userId: string, id: string): Promise<void> {
    const removed = await this.notifications.deleteOne({ _id: id, recipient_id: userId });
    if (removed === 0) throw new NotificationsException('NOTIFICATION_NOT_FOUND', NOT_FOUND);
  }

  /** Each notification's sentence is written in the reader's language (their settings, user.settings_updated). */
  private async views(userId: string, docs: NotificationDoc[]): Promise<NotificationView[]> {
    const [cards, reader] = await Promise.all([this.members.cards(docs.map((d) => d.actor_id)), this.members.recipient(userId)]);
    return docs.map((doc) => toNotificationView(doc, cards.get(doc.actor_id) ?? null, reader.language));
  }
}
