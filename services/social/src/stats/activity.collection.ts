import { defineCollection } from '@app/store';

/**
 * Read model of other services' facts behind the profile's reviews_count and the stats:
 * one row per review (`review:<id>`) or squad membership (`squad:<squadId>:<userId>`).
 */
export interface ActivityDoc {
  _id: string;
  kind: 'review' | 'squad';
  user_id: string;
  /** False once deleted (absent on a review's row a moderation event made before its review.created arrived). */
  active?: boolean;
  /** A review a moderator hid: out of the reviews count until shown again. */
  hidden?: boolean;
  /** The `occurredAt` of the hide or show that set `hidden`: an older one arriving later changes nothing. */
  hidden_changed_at?: string;
  /** A squad membership: the `occurredAt` of the join or leave that set `active`, likewise. */
  membership_changed_at?: string;
}

export const activitiesCollection = defineCollection<ActivityDoc>('activities', [
  { fields: { user_id: 1, kind: 1, active: 1 } },
], { cacheCounts: 20_000 }); // a profile's reviews_count, asked on every view
