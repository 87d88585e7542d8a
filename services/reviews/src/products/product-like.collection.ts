import { defineCollection } from '@app/store';

/** One row per (product, member): the unique index is the arbiter of every toggle. */
export interface ProductLikeDoc {
  _id: string;
  product_id: string;
  user_id: string;
  created_at: string;
}

export const productLikesCollection = defineCollection<ProductLikeDoc>('product_likes', [
  { fields: { product_id: 1, user_id: 1 }, unique: true },
  { fields: { user_id: 1 } },
]);
