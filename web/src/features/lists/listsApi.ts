import { api, listOf } from '../../core/api';
import type { ListDetailView, ListView, ListVisibility } from '@app/contracts';

export interface ListInput {
  name?: string;
  description?: string;
  visibility?: ListVisibility;
}

const listsApi = api.injectEndpoints({
  endpoints: (b) => ({
    /** A member's lists the viewer may see; no userId: the viewer's own, "Want to try" first. */
    lists: b.query<ListView[], string | undefined>({
      query: (userId) => ({ url: '/lists', params: { limit: 100, ...(userId && { userId }) } }),
      transformResponse: (r: unknown) => listOf<ListView>(r).items,
      providesTags: ['List'],
    }),
    /** The viewer's own lists, each saying whether it holds `productId` (the "Add to list" menu's checks). */
    listsHolding: b.query<ListView[], string>({
      query: (productId) => ({ url: '/lists', params: { limit: 100, productId } }),
      transformResponse: (r: unknown) => listOf<ListView>(r).items,
      providesTags: ['List'],
    }),
    list: b.query<ListDetailView, string>({
      query: (id) => ({ url: `/lists/${id}`, params: { limit: 100 } }),
      transformResponse: (r: { data: ListDetailView }) => r.data,
      providesTags: ['List'],
    }),
    createList: b.mutation<ListView, ListInput>({
      query: (body) => ({ url: '/lists', method: 'POST', body }),
      transformResponse: (r: { data: ListView }) => r.data,
      invalidatesTags: ['List'],
    }),
    updateList: b.mutation<ListView, { id: string } & ListInput>({
      query: ({ id, ...body }) => ({ url: `/lists/${id}`, method: 'PUT', body }),
      invalidatesTags: ['List'],
    }),
    deleteList: b.mutation<unknown, string>({
      query: (id) => ({ url: `/lists/${id}`, method: 'DELETE' }),
      invalidatesTags: ['List'],
    }),
    addToList: b.mutation<unknown, { id: string; productId: string }>({
      query: ({ id, productId }) => ({ url: `/lists/${id}/items`, method: 'POST', body: { product_id: productId } }),
      invalidatesTags: ['List'],
    }),
    removeFromList: b.mutation<unknown, { id: string; productId: string }>({
      query: ({ id, productId }) => ({ url: `/lists/${id}/items/${productId}`, method: 'DELETE' }),
      invalidatesTags: ['List'],
    }),
  }),
});

export const {
  useListsQuery,
  useListsHoldingQuery,
  useListQuery,
  useCreateListMutation,
  useUpdateListMutation,
  useDeleteListMutation,
  useAddToListMutation,
  useRemoveFromListMutation,
} = listsApi;
