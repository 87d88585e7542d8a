import { NotificationType } from '@app/contracts';
import { defineCollection } from '@app/store';

/**
 * A stored notification. The message is rendered when read, from the actor's current card,
 * so a rename shows everywhere; only words that are not a member's (the squad name) are kept,
 * and squad.updated renames those.
 */
export interface NotificationDoc {
  _id: string;
  recipient_id: string;
  type: NotificationType;
  actor_id: string;
  /** What it is about: the review, comment, join request, or the recipient for follows. */
  subject_id: string;
  squad_name: string | null;
  /** The squad `squad_name` names, so squad.updated can rename it (absent on notifications older than that event). */
  squad_id?: string;
  /** The squad's updated_at of the rename that set `squad_name`; an older rename arriving late is ignored. */
  squad_name_at?: string;
  /** review_hidden: the moderator's reason, told to the author. */
  reason?: string;
  /** type:actor:subject:recipient. A repeat (like, unlike, like again) refreshes this one. */
  dedupe_key: string;
  /** The event that last created or refreshed it: that event delivered again changes nothing. */
  event_id: string;
  is_read: boolean;
  created_at: string;
}

export const notificationsCollection = defineCollection<NotificationDoc>('notifications', [
  { fields: { dedupe_key: 1 }, unique: true },
  { fields: { recipient_id: 1 }, orderBy: { created_at: -1 } },
  { fields: { recipient_id: 1, is_read: 1 } },
  { fields: { actor_id: 1 } },
  { fields: { squad_id: 1 }, sparse: true },
], { cacheCounts: 10_000 }); // the unread badge is asked far more often than a notification is written
