import { BaseDoc, defineCollection } from '@app/store';

/** Read model of blocks, fed by `block.created` / `block.removed`; `_id` is `blockerId:blockedId`. */
export interface BlockDoc extends BaseDoc {
  blocker_id: string;
  blocked_id: string;
}

export const blocksCollection = defineCollection<BlockDoc>('blocks', [
  { fields: { blocker_id: 1, blocked_id: 1 }, unique: true },
  { fields: { blocked_id: 1 } },
], { cacheById: 20_000 }); // every check is a lookup by the pair: answered from memory, absent pairs included

export function blockId(blockerId: string, blockedId: string): string {
  return `${blockerId}:${blockedId}`;
}
