import { defineCollection } from '@app/store';

/** Read model of blocks, fed by block.created / block.removed. */
export interface BlockDoc {
  _id: string;
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}

export const blocksCollection = defineCollection<BlockDoc>('blocks', [
  { fields: { blocker_id: 1, blocked_id: 1 }, unique: true },
  { fields: { blocked_id: 1 } },
]);
