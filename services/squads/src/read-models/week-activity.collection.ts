import { defineCollection } from '@app/store';

/**
 * Read model of what a squad's week is made of (issue 43 §2, a squad's stats), from other services'
 * events: a message of its chat (`message:<id>`, from messaging) or a review by anyone
 * (`review:<id>`, from reviews; a squad counts its members'). Keyed by the event's subject, so a
 * redelivery writes the same row.
 */
export interface WeekActivityDoc {
  _id: string;
  kind: 'message' | 'review';
  /** A message's squad. */
  squad_id?: string;
  /** A review's author, a message's sender. */
  user_id: string;
  at: string;
  /** A review a moderator hid: not counted until shown again. */
  hidden?: boolean;
}

export const weekActivityCollection = defineCollection<WeekActivityDoc>('week_activity', [
  { fields: { squad_id: 1, kind: 1, at: -1 } },
  { fields: { user_id: 1, kind: 1, at: -1 } },
  { fields: { at: 1 } },
]);
