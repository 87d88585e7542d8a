import { SquadCategory } from '@app/contracts';
import { defineCollection } from '@app/store';

export interface SquadDoc {
  _id: string;
  name: string;
  description: string;
  category: SquadCategory;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export const squadsCollection = defineCollection<SquadDoc>('squads', [
  { fields: { created_at: -1 } },
  { fields: { category: 1 }, orderBy: { created_at: -1 } },
]);
