import { AnyEventEnvelope } from '@app/contracts';
import { defineCollection } from '@app/store';

/** Events recorded with the change that caused them, until the relay has published them. */
export interface OutboxDoc {
  _id: string;
  event: AnyEventEnvelope;
  created_at: number;
  attempts: number;
}

export const outboxCollection = defineCollection<OutboxDoc>('bus_outbox', [{ fields: { created_at: 1 } }]);

/** Event ids this service has handled: a redelivered event is acknowledged without running again. */
export interface InboxDoc {
  _id: string;
  type: string;
  handled_at: number;
}

export const inboxCollection = defineCollection<InboxDoc>('bus_inbox', [{ fields: { handled_at: 1 } }]);
