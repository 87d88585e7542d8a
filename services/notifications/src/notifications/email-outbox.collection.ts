import { MailOutboxDoc } from '@app/platform';
import { defineCollection } from '@app/store';

/**
 * Emails of notifications: the MailOutboxWorker (libs/platform/src/mail) sends the rows with
 * `sent_at: null` over SMTP (or as .eml files) and sets it, retrying failures.
 */
export interface EmailOutboxDoc extends MailOutboxDoc {
  /** `${notification_id}:${event_id}`: one email per notification per event, however often it is handled. */
  _id: string;
  user_id: string;
  notification_id: string;
}

export const emailOutboxCollection = defineCollection<EmailOutboxDoc>('email_outbox', [
  { fields: { sent_at: 1 }, orderBy: { created_at: 1 } },
]);
