import { api, data } from '../../core/api';
import type { SearchResultsView } from '@app/contracts';

/** GET /api/search: the four groups of the one search (issue 21 §5). */
export const searchApi = api.injectEndpoints({
  endpoints: (b) => ({
    search: b.query<SearchResultsView, { q: string; limit?: number }>({
      query: ({ q, limit }) => ({ url: '/search', params: { q, ...(limit ? { limit } : {}) } }),
      transformResponse: (r: unknown) => data<SearchResultsView>(r),
    }),
  }),
});

export const { useSearchQuery } = searchApi;
