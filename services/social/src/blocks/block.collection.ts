import { defineCollection } from '@app/store';

export interface BlockDoc {
  _id: string;
  blocker_id: string;
  blocked_id: string;
  created_at: string;
}

export const blocksCollection = defineCollection<BlockDoc>('blocks', [
  { fields: { blocker_id: 1, blocked_id: 1 }, unique: true },
  { fields: { blocked_id: 1 } },
], { cacheById: 20_000 }); // a profile page looks the block up both ways
