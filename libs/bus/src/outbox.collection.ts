import { AnyEventEnvelope } from '@app/contracts';
import { defineCollection } from '@app/store';

/** A stored field value a proof can match on. */
export type ProofValue = string | number | boolean | null;

/**
 * How to tell, after a crash, whether the change behind an event happened: a row of
 * `collection` matching every [field, value] pair exists (`present`) or not (a delete).
 * Pairs rather than an object because stored field names may not hold dots.
 */
export interface StoredProof {
  collection: string;
  match: [string, ProofValue][];
  present: boolean;
}

/**
 * An event recorded before the change it announces (an intent), until it is published.
 * `committed` says the change is known to have happened; without it the relay checks `proof`.
 * Rows without a proof were written after their change (before intents existed).
 */
export interface OutboxDoc {
  _id: string;
  event: AnyEventEnvelope;
  created_at: number;
  attempts: number;
  proof?: StoredProof;
  committed?: boolean;
}

export const outboxCollection = defineCollection<OutboxDoc>('bus_outbox', [{ fields: { created_at: 1 } }]);

/** Event ids this service has handled: a redelivered event is acknowledged without running again. */
export interface InboxDoc {
  _id: string;
  type: string;
  handled_at: number;
}

export const inboxCollection = defineCollection<InboxDoc>('bus_inbox', [{ fields: { handled_at: 1 } }]);
