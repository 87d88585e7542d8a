import { defineCollection } from '@app/store';

/**
 * Read model of what a squad's week is made of (issue 43 §2, a squad's stats), from other services'
 * events: a message of its chat (`message:<id>`, from messaging) or a review by anyone
 * (`review:<id>`, from reviews; a squad counts its members'). Keyed by the event's subject, so a
 * redelivery writes the same row, and the events about one subject may come in any order (a failed
 * delivery comes again behind later ones on Redis Streams): a deletion or a moderation that comes
 * first leaves the row its creation then completes.
 */
export interface WeekActivityDoc {
  _id: string;
  kind: 'message' | 'review';
  /** A message's squad. */
  squad_id?: string;
  /** A review's author, a message's sender. */
  user_id: string;
  /** When it was written; until its creation arrives, when the first event about it was emitted. */
  at: string;
  /** A review a moderator hid: not counted until shown again. */
  hidden?: boolean;
  /** The `occurredAt` of the hide or show that set `hidden`: an older one arriving later changes nothing. */
  hidden_changed_at?: string;
  /** Deleted: never counted again, whatever arrives after. */
  deleted?: boolean;
}

export const weekActivityCollection = defineCollection<WeekActivityDoc>('week_activity', [
  { fields: { squad_id: 1, kind: 1, at: -1 } },
  { fields: { user_id: 1, kind: 1, at: -1 } },
  { fields: { at: 1 } },
]);
