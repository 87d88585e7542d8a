import { ListVisibility } from '@app/contracts';
import { defineCollection } from '@app/store';

export interface ListDoc {
  _id: string;
  user_id: string;
  name: string;
  description: string | null;
  visibility: ListVisibility;
  /** Set (to the owner's id) only on the member's "Want to try" list: the unique sparse key makes its creation idempotent. */
  default_of?: string;
  item_count: number;
  created_at: string;
  updated_at: string;
}

export interface ListItemDoc {
  _id: string;
  list_id: string;
  product_id: string;
  note: string | null;
  added_at: string;
}

export const listsCollection = defineCollection<ListDoc>('lists', [
  { fields: { user_id: 1 }, orderBy: { created_at: 1 } },
  { fields: { default_of: 1 }, unique: true, sparse: true },
]);

export const listItemsCollection = defineCollection<ListItemDoc>('list_items', [
  { fields: { list_id: 1, product_id: 1 }, unique: true },
  { fields: { list_id: 1 }, orderBy: { added_at: -1 } },
]);
