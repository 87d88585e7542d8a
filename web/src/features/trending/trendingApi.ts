import { api, listOf } from '../../core/api';
import type { TrendingTopic } from '@app/contracts';

export const trendingApi = api.injectEndpoints({
  endpoints: (b) => ({
    trending: b.query<TrendingTopic[], void>({
      query: () => '/trending',
      transformResponse: (r: unknown) => listOf<TrendingTopic>(r).items,
      providesTags: ['Trending'],
    }),
  }),
});

export const { useTrendingQuery } = trendingApi;
