import { api, data, listOf } from '../../core/api';
import type { ProductView } from '@app/contracts';

export const CATEGORIES = ['All', 'Electronics', 'Fitness', 'Kitchen', 'Home', 'Beauty', 'Fashion'] as const;

export interface ProductDraft {
  name: string;
  brand: string;
  price: number;
  category: string;
  description: string;
  features: string[];
  image?: string | null;
  image_alt?: string | null;
}

export const productsApi = api.injectEndpoints({
  endpoints: (b) => ({
    products: b.query<{ items: ProductView[]; total: number }, { search?: string; category?: string; page?: number; limit?: number }>({
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
        const { items, meta } = listOf<ProductView>(r);
        return { items, total: meta.total };
      },
      providesTags: ['Product'],
    }),
    product: b.query<ProductView, string>({
      query: (id) => `/products/${encodeURIComponent(id)}`,
      transformResponse: (r: unknown) => data<ProductView>(r),
      providesTags: (_r, _e, id) => [{ type: 'Product', id }],
    }),
    createProduct: b.mutation<ProductView, ProductDraft>({
      query: (body) => ({ url: '/products', method: 'POST', body }),
      transformResponse: (r: unknown) => data<ProductView>(r),
      invalidatesTags: ['Product', 'Trending'],
    }),
    likeProduct: b.mutation<{ liked: boolean; like_count: number }, string>({
      query: (id) => ({ url: `/likes/products/${id}`, method: 'POST' }),
      transformResponse: (r: unknown) => data<{ liked: boolean; like_count: number }>(r),
      invalidatesTags: ['Product'],
    }),
    saveProduct: b.mutation<void, { id: string; save: boolean }>({
      query: ({ id, save }) => ({ url: `/saved/products/${id}`, method: save ? 'POST' : 'DELETE' }),
      // the product's own `saved` mark changes with it, wherever the product is cached
      invalidatesTags: ['Saved', 'Product'],
    }),
  }),
});

export const { useProductsQuery, useProductQuery, useCreateProductMutation, useLikeProductMutation, useSaveProductMutation } = productsApi;

export function productImage(p: Pick<ProductView, 'image'> | null | undefined): string | null {
  return p?.image || null;
}
