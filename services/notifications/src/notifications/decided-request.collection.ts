import { defineCollection } from '@app/store';

/**
 * A join request its squad decided (squad.join_decided), so that a "wants to join" delivered after
 * the decision (a redelivery behind later events) tells no manager. A month after, no such
 * delivery is still on its way: older rows go as new ones come.
 */
export interface DecidedRequestDoc {
  /** The join request's id. */
  _id: string;
  squad_id: string;
  decided_at: string;
}

export const decidedRequestsCollection = defineCollection<DecidedRequestDoc>('decided_join_requests', [{ fields: { decided_at: 1 } }]);
