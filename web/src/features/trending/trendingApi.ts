import { api, listOf } from '../../core/api';
import type { TrendingTag, TrendingTopic } from '@app/contracts';

export const trendingApi = api.injectEndpoints({
  endpoints: (b) => ({
    trending: b.query<TrendingTopic[], void>({
      query: () => '/trending',
      transformResponse: (r: unknown) => listOf<TrendingTopic>(r).items,
      providesTags: ['Trending'],
    }),
    /** The top tags of the same week (issue 21 §6). */
    trendingTags: b.query<TrendingTag[], void>({
      query: () => '/trending/tags',
      transformResponse: (r: unknown) => listOf<TrendingTag>(r).items,
      providesTags: ['Trending'],
    }),
  }),
});

export const { useTrendingQuery, useTrendingTagsQuery } = trendingApi;
