import { defineCollection } from '@app/store';

export type SavedKind = 'product' | 'review';

export interface SavedDoc {
  _id: string;
  user_id: string;
  kind: SavedKind;
  item_id: string;
  created_at: string;
}

export const savedCollection = defineCollection<SavedDoc>('saved_items', [
  { fields: { user_id: 1, kind: 1, item_id: 1 }, unique: true },
  { fields: { user_id: 1, kind: 1 }, orderBy: { created_at: -1 } },
  { fields: { item_id: 1 } },
], { cacheById: 50_000 }); // a page's `saved` marks: lookups by (member, kind, item)
