import { ProductCategory } from '@app/contracts';
import { defineCollection } from '@app/store';

export interface ReviewDoc {
  _id: string;
  user_id: string;
  /** Set while a moderator hides the review (issue 22 §3): out of every listing, kept for moderators. */
  hidden_at?: string;
  product_id: string | null;
  /**
   * `${user_id}:${product_id}`, present only when a product is linked: the unique sparse
   * index on it enforces one review per member per product and lets composer posts repeat.
   */
  product_key?: string;
  /** Snapshot of the product's category at posting time (trending topics). */
  product_category: ProductCategory | null;
  rating: number | null;
  title: string;
  content: string;
  images: string[];
  /** One description per image ('' for none); absent on reviews stored before alt text. */
  image_alts?: string[];
  /** Stored tag forms read from the content (issue 21 §6); absent before tags: none. */
  tags?: string[];
  location: string | null;
  date: string | null;
  /** Only on reviews stored before the counters moved to review_counts (read there, removed by its backfill). */
  like_count?: number;
  comment_count?: number;
  edited: boolean;
  /** Absent on reviews stored before spoilers: read as false. */
  has_spoilers?: boolean;
  /** Edits made since history was kept (absent before): numbers the versions in review_versions. */
  edit_count?: number;
  created_at: string;
  updated_at: string;
}

export const reviewsCollection = defineCollection<ReviewDoc>('reviews', [
  { fields: { product_key: 1 }, unique: true, sparse: true },
  { fields: { user_id: 1 }, orderBy: { created_at: -1 } },
  { fields: { product_id: 1 }, orderBy: { created_at: -1 } },
  { fields: { product_id: 1 }, orderBy: { rating: -1, created_at: -1 } },
  { fields: { created_at: -1 } },
], { text: ['title', 'content'], cacheById: 10_000 });
