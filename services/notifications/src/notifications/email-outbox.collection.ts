import { defineCollection } from '@app/store';

/**
 * Emails waiting for a mail service (docs/decisions/notifications.md): an operator's worker
 * sends the ones with `sent_at: null` and sets it.
 */
export interface EmailOutboxDoc {
  /** `${notification_id}:${event_id}`: one email per notification per event, however often it is handled. */
  _id: string;
  user_id: string;
  notification_id: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
}

export const emailOutboxCollection = defineCollection<EmailOutboxDoc>('email_outbox', [
  { fields: { sent_at: 1 }, orderBy: { created_at: 1 } },
]);
