import { JoinRequestStatus } from '@app/contracts';
import { defineCollection } from '@app/store';

export interface JoinRequestDoc {
  _id: string;
  squad_id: string;
  user_id: string;
  status: JoinRequestStatus;
  message: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  /** `${squadId}:${userId}` while pending, unset once decided: one pending request per member, even under races. */
  pending_key?: string;
}

export const joinRequestsCollection = defineCollection<JoinRequestDoc>('join_requests', [
  { fields: { pending_key: 1 }, unique: true, sparse: true },
  { fields: { squad_id: 1, status: 1 }, orderBy: { created_at: -1 } },
  { fields: { user_id: 1, squad_id: 1 }, orderBy: { created_at: -1 } },
]);

export function pendingKey(squadId: string, userId: string): string {
  return `${squadId}:${userId}`;
}
