import { BaseDoc, defineCollection } from '@app/store';

/**
 * A member's standing as every service keeps it from auth's events: whether the account was
 * deleted. Only members with something to say have a row; the whole set is held in memory.
 */
export interface MemberStandingDoc extends BaseDoc {
  deleted?: boolean;
}

export const memberStandingCollection = defineCollection<MemberStandingDoc>('member_standing', []);
