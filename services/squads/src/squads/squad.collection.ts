import { SquadCategory } from '@app/contracts';
import { defineCollection, FoldedKey } from '@app/store';

export interface SquadDoc {
  _id: string;
  name: string;
  description: string;
  category: SquadCategory;
  creator_id: string;
  created_at: string;
  updated_at: string;
  /** Folded name and description for the discover search (absent until the boot fill on older rows). */
  search_key?: string;
}

export const squadsCollection = defineCollection<SquadDoc>('squads', [
  { fields: { created_at: -1 } },
  { fields: { category: 1 }, orderBy: { created_at: -1 } },
  // The substring search scans: on SQLite its count reads this index alone, no document parsed.
  { fields: { search_key: 1 } },
]);

/** What the discover search matches by substring, folded (ş=s, İ=ı=i). */
export const squadSearchKey = new FoldedKey<SquadDoc>('search_key', ['name', 'description']);
