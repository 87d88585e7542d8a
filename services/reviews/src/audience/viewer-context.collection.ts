import { defineCollection } from '@app/store';

/**
 * A stamp per member, changed (a fresh random value) by every write to what their pages read
 * about them: follows, mutes, blocks, followed tags, keyword filters. Two rows stamp sets shared by
 * every viewer: `LARGE_ACCOUNTS` and `RESTRICTED_ACCOUNTS` (not public). A replica keeps a copy of
 * each in memory and trusts it while the stored stamp is the one it loaded with
 * (docs/decisions/reviews.md, viewer context).
 */
export interface ContextStampDoc {
  _id: string;
  stamp: string;
}

export const LARGE_ACCOUNTS = '*large';
export const RESTRICTED_ACCOUNTS = '*restricted';

export const contextStampsCollection = defineCollection<ContextStampDoc>('viewer_context_stamps', [], { cacheById: 20_000 });
