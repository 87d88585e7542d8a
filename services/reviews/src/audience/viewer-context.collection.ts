import { defineCollection } from '@app/store';

/**
 * A stamp per member, changed (a fresh random value) by every write to what their pages read
 * about them: follows, mutes, followed tags, keyword filters. One row, `LARGE_ACCOUNTS`, is the
 * stamp of the set of large accounts. A replica keeps a copy of each context in memory and trusts
 * it while the stored stamp is the one it loaded with (docs/decisions/reviews.md, viewer context).
 */
export interface ContextStampDoc {
  _id: string;
  stamp: string;
}

export const LARGE_ACCOUNTS = '*large';

export const contextStampsCollection = defineCollection<ContextStampDoc>('viewer_context_stamps');
