import type { KeywordFilterView } from '@app/contracts';
import { api, data } from '../../core/api';

/** The body of POST /filters (issue 22 §2). */
export interface NewKeywordFilter {
  phrase: string;
  whole_word: boolean;
  expires_at: string | null;
}

// A filter changes how every review list reads: they refetch.
const LISTS = ['Filters', 'Feed', 'Review', 'Product'] as const;

export const filtersApi = api.injectEndpoints({
  endpoints: (b) => ({
    keywordFilters: b.query<KeywordFilterView[], void>({
      query: () => '/filters',
      transformResponse: (r: unknown) => data<KeywordFilterView[]>(r),
      providesTags: ['Filters'],
    }),
    addKeywordFilter: b.mutation<KeywordFilterView, NewKeywordFilter>({
      query: (body) => ({ url: '/filters', method: 'POST', body }),
      transformResponse: (r: unknown) => data<KeywordFilterView>(r),
      invalidatesTags: [...LISTS],
    }),
    deleteKeywordFilter: b.mutation<void, string>({
      query: (id) => ({ url: `/filters/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...LISTS],
    }),
  }),
});

export const { useKeywordFiltersQuery, useAddKeywordFilterMutation, useDeleteKeywordFilterMutation } = filtersApi;
