import type { Role } from '@app/contracts';
import { BaseDoc, defineCollection } from '@app/store';

/**
 * A member's standing as every service keeps it from auth's events: whether the account was
 * deleted, the session version older tokens are cut off below, and the site role. Only members
 * with something to say have a row (staff, anyone who logged out or was demoted, the deleted);
 * the whole set is held in memory.
 */
export interface MemberStandingDoc extends BaseDoc {
  deleted?: boolean;
  session_version?: number;
  role?: Role;
  /** Suspended until then (moderation.member_suspended): every token of the member is refused before it. */
  suspended_until?: string;
}

export const memberStandingCollection = defineCollection<MemberStandingDoc>('member_standing', []);
