import { defineCollection } from '@app/store';

/** Read model of blocks, fed by block.created / block.removed (_id = `${blockerId}:${blockedId}`). */
export interface BlockDoc {
  _id: string;
  blocker_id: string;
  blocked_id: string;
}

export const blocksCollection = defineCollection<BlockDoc>('blocks', [{ fields: { blocked_id: 1, blocker_id: 1 } }]);

export function blockId(blockerId: string, blockedId: string): string {
  return `${blockerId}:${blockedId}`;
}
