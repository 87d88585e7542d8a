import { api, data, listOf } from '../../app/api';
import type { Product } from '../../shared/types';

export const CATEGORIES = ['All', 'Electronics', 'Fitness', 'Kitchen', 'Home', 'Beauty', 'Fashion'] as const;

export interface ProductDraft {
  name: string;
  brand: string;
  price: number;
  category: string;
  description: string;
  features: string[];
  image?: string | null;
}

export const productsApi = api.injectEndpoints({
  endpoints: (b) => ({
    products: b.query<{ items: Product[]; total: number }, { search?: string; category?: string; page?: number; limit?: number }>({
      query: ({ search, category, page = 1, limit = 50 }) => ({
        url: '/products',
        params: {
          page,
          limit,
          ...(search ? { search } : {}),
          ...(category && category !== 'All' ? { category } : {}),
        },
      }),
      transformResponse: (r: unknown) => {
        const { items, meta } = listOf<Product>(r);
        return { items, total: meta.total };
      },
      providesTags: ['Product'],
    }),
    product: b.query<Product, string>({
      query: (id) => `/products/${encodeURIComponent(id)}`,
      transformResponse: (r: unknown) => data<Product>(r),
      providesTags: (_r, _e, id) => [{ type: 'Product', id }],
    }),
    createProduct: b.mutation<Product, ProductDraft>({
      query: (body) => ({ url: '/products', method: 'POST', body }),
      transformResponse: (r: unknown) => data<Product>(r),
      invalidatesTags: ['Product', 'Trending'],
    }),
    likeProduct: b.mutation<{ liked: boolean; like_count: number }, string>({
      query: (id) => ({ url: `/likes/products/${id}`, method: 'POST' }),
      transformResponse: (r: unknown) => data<{ liked: boolean; like_count: number }>(r),
    }),
    saveProduct: b.mutation<void, { id: string; save: boolean }>({
      query: ({ id, save }) => ({ url: `/saved/products/${id}`, method: save ? 'POST' : 'DELETE' }),
      invalidatesTags: ['Saved'],
    }),
  }),
});

export const { useProductsQuery, useProductQuery, useCreateProductMutation, useLikeProductMutation, useSaveProductMutation } = productsApi;

export function productImage(p: Pick<Product, 'image' | 'image_url'> | null | undefined): string | null {
  return p?.image_url || p?.image || null;
}

export function productRating(p: Product): number {
  return Number(p.average_rating ?? p.rating ?? 0);
}

export function productReviewCount(p: Product): number {
  return Number(p.review_count ?? p.reviews_count ?? 0);
}

/** features may be an array, a JSON-text array or plain text (part 2 §3). */
export function productFeatures(f: Product['features']): string[] {
  if (!f) return [];
  if (Array.isArray(f)) return f.filter(Boolean);
  try {
    const parsed = JSON.parse(f) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String).filter(Boolean);
  } catch {
    /* plain text */
  }
  return f.split(/\n|,/).map((s) => s.trim()).filter(Boolean);
}
