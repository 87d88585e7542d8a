import { defineCollection } from '@app/store';

export interface MuteDoc {
  _id: string;
  muter_id: string;
  muted_id: string;
  created_at: string;
}

export const mutesCollection = defineCollection<MuteDoc>('mutes', [{ fields: { muter_id: 1, muted_id: 1 }, unique: true }]);
