import { api, data, listOf } from '../../core/api';
import type { ReviewView, TagView } from '@app/contracts';
import type { ReviewPage } from '../reviews/reviewsApi';

const path = (tag: string) => `/tags/${encodeURIComponent(tag)}`;

// The tag's own cache tag, added here rather than in the shared api slice.
export const tagsApi = api.enhanceEndpoints({ addTagTypes: ['Tag'] }).injectEndpoints({
  endpoints: (b) => ({
    tag: b.query<TagView, string>({
      query: (tag) => path(tag),
      transformResponse: (r: unknown) => data<TagView>(r),
      providesTags: (_r, _e, tag) => [{ type: 'Tag', id: tag.toLocaleLowerCase('tr') }],
    }),
    tagReviews: b.query<ReviewPage, { tag: string; page: number; limit?: number }>({
      query: ({ tag, page, limit = 10 }) => ({ url: `${path(tag)}/reviews`, params: { page, limit } }),
      transformResponse: (r: unknown, _m, a) => listOf<ReviewView>(r, a.page, a.limit ?? 10),
      providesTags: ['Review'],
    }),
    /** Follows or unfollows; the feed changes with it. */
    followTag: b.mutation<TagView, { tag: string; follow: boolean }>({
      query: ({ tag, follow }) => ({ url: `${path(tag)}/follow`, method: follow ? 'POST' : 'DELETE' }),
      transformResponse: (r: unknown) => data<TagView>(r),
      invalidatesTags: (_r, _e, a) => [{ type: 'Tag', id: a.tag.toLocaleLowerCase('tr') }, 'Feed'],
    }),
  }),
});

export const { useTagQuery, useTagReviewsQuery, useFollowTagMutation } = tagsApi;
