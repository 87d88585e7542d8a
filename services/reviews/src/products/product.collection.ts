import { ProductCategory } from '@app/contracts';
import { defineCollection, FoldedKey } from '@app/store';

/** A product. The rating is kept as an exact sum and count, changed only with $inc. */
export interface ProductDoc {
  _id: string;
  slug: string;
  name: string;
  brand: string;
  description: string;
  price: number;
  category: ProductCategory;
  features: string[];
  image: string | null;
  /** The image's description (absent on products stored before alt text: none). */
  image_alt?: string | null;
  user_id: string;
  rating_sum: number;
  review_count: number;
  /** Moved only when a product like row was really inserted or deleted (absent on older rows: 0). */
  like_count?: number;
  created_at: string;
  updated_at: string;
  /** Folded name and description for the catalogue's `?search=` (absent until the boot fill on older rows). */
  search_key?: string;
}

export const productsCollection = defineCollection<ProductDoc>('products', [
  { fields: { slug: 1 }, unique: true },
  { fields: { category: 1 }, orderBy: { created_at: -1 } },
  { fields: { created_at: -1 } },
  // The substring search scans, newest first: on SQLite its page's ids and its count read this
  // index alone in its order, no document parsed and nothing sorted (products.service.ts searchPage).
  { fields: { created_at: -1, _id: 1, search_key: 1 } },
], { text: ['name', 'description'], cacheById: 5_000 });

/** What the catalogue's `?search=` (the composer's product picker) matches by substring, folded (ş=s, İ=ı=i). */
export const productSearchKey = new FoldedKey<ProductDoc>('search_key', ['name', 'description']);
