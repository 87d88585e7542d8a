import { BaseDoc, defineCollection } from '@app/store';

/** Read model of mutes, fed by `mute.created` / `mute.removed`; `_id` is `muterId:mutedId`. */
export interface MuteDoc extends BaseDoc {
  muter_id: string;
  muted_id: string;
}

export const mutesCollection = defineCollection<MuteDoc>('mutes', [
  { fields: { muter_id: 1, muted_id: 1 }, unique: true },
  { fields: { muted_id: 1 } },
], { cacheById: 20_000 }); // every check is a lookup by the pair: answered from memory, absent pairs included
