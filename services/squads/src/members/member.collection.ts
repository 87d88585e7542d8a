import { SquadRole } from '@app/contracts';
import { defineCollection } from '@app/store';

/** One membership; the unique pair makes joining idempotent. */
export interface MemberDoc {
  _id: string;
  squad_id: string;
  user_id: string;
  role: SquadRole;
  joined_at: string;
}

export const membersCollection = defineCollection<MemberDoc>('squad_members', [
  { fields: { squad_id: 1, user_id: 1 }, unique: true },
  { fields: { squad_id: 1 }, orderBy: { joined_at: 1 } },
  { fields: { user_id: 1 }, orderBy: { joined_at: -1 } },
]);
