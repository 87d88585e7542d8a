import { Language, NotificationView, UserCard } from '@app/contracts';
import { NotificationDoc } from './notification.collection';
import { notificationMessage } from './notification-text';

/** The reply shape of one notification (spec part 1 §3) from the stored one and the actor's card, in the recipient's language. */
export function toNotificationView(doc: NotificationDoc, actor: UserCard | null, language: Language): NotificationView {
  return {
    id: doc._id,
    type: doc.type,
    message: notificationMessage(doc.type, actor, doc.squad_name, doc.reason, language),
    is_read: doc.is_read,
    created_at: doc.created_at,
    related_user: actor,
    // squad notifications link to the squad (its join requests for a manager)
    ...(doc.squad_id && { squad_id: doc.squad_id }),
  };
}
