import { api, data, errorCode, isSignedOutCode, listOf } from '../../core/api';
import type { CommentView, CommonErrorCode, LikeStatus, ReviewsErrorCode, ReviewVersionView, ReviewView } from '@app/contracts';
import { translate } from '../../shared/i18n';
import type { TextKey } from '../../shared/i18n/translate';

export interface ReviewDraft {
  product_id?: string;
  rating?: number;
  title?: string;
  content: string;
  images?: string[];
  image_alts?: string[];
  location?: string;
  date?: string;
  has_spoilers?: boolean;
}

/** A PUT /reviews/{id} body: `image_alts` only with the review's `images` (issue 21 §7). */
export interface ReviewEdit {
  id: string;
  content: string;
  rating?: number;
  has_spoilers?: boolean;
  images?: string[];
  image_alts?: string[];
}

/** Orders of GET /reviews (`sort`): the product page's Most Recent, Highest Rated, Lowest Rated. */
export type ReviewSort = 'recent' | 'rating_desc' | 'rating_asc';

export interface ReviewPage {
  items: ReviewView[];
  meta: { total: number; page: number; limit: number; totalPages: number };
}

// The history tag is this feature's own, added here rather than in the shared api slice.
export const reviewsApi = api.enhanceEndpoints({ addTagTypes: ['ReviewHistory'] }).injectEndpoints({
  endpoints: (b) => ({
    feed: b.query<ReviewPage, { page: number; limit?: number }>({
      query: ({ page, limit = 10 }) => ({ url: '/feed', params: { page, limit } }),
      transformResponse: (r: unknown, _m, a) => listOf<ReviewView>(r, a.page, a.limit ?? 10),
      providesTags: ['Feed'],
    }),
    reviews: b.query<ReviewPage, { userId?: string; productId?: string; page?: number; limit?: number; sort?: ReviewSort }>({
      query: ({ page = 1, limit = 10, ...rest }) => ({
        url: '/reviews',
        params: Object.fromEntries(Object.entries({ page, limit, ...rest }).filter(([, v]) => v !== undefined && v !== '')),
      }),
      transformResponse: (r: unknown, _m, a) => listOf<ReviewView>(r, a.page ?? 1, a.limit ?? 10),
      providesTags: ['Review'],
    }),
    review: b.query<ReviewView, string>({
      query: (id) => ({ url: `/reviews/${id}` }),
      transformResponse: (r: unknown) => data<ReviewView>(r),
      providesTags: ['Review'],
    }),
    createReview: b.mutation<ReviewView, ReviewDraft>({
      query: (body) => ({ url: '/reviews', method: 'POST', body }),
      transformResponse: (r: unknown) => data<ReviewView>(r),
      invalidatesTags: ['Feed', 'Review', 'Product', 'Stats', 'Profile', 'Trending'],
    }),
    updateReview: b.mutation<ReviewView, ReviewEdit>({
      query: ({ id, ...body }) => ({ url: `/reviews/${id}`, method: 'PUT', body }),
      transformResponse: (r: unknown) => data<ReviewView>(r),
      invalidatesTags: (_r, _e, a) => ['Feed', 'Review', 'Product', 'Profile', 'Saved', { type: 'ReviewHistory', id: a.id }],
    }),
    /** Earlier versions of an edited review, newest first (GET /reviews/{id}/history). */
    reviewHistory: b.query<ReviewVersionView[], string>({
      query: (id) => ({ url: `/reviews/${id}/history`, params: { page: 1, limit: 50 } }),
      transformResponse: (r: unknown) => listOf<ReviewVersionView>(r).items,
      providesTags: (_r, _e, id) => [{ type: 'ReviewHistory', id }],
    }),
    deleteReview: b.mutation<void, string>({
      query: (id) => ({ url: `/reviews/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Feed', 'Review', 'Product', 'Stats', 'Profile', 'Saved'],
    }),
    toggleLike: b.mutation<LikeStatus, string>({
      query: (id) => ({ url: `/likes/reviews/${id}`, method: 'POST' }),
      transformResponse: (r: unknown) => data<LikeStatus>(r),
    }),
    comments: b.query<CommentView[], string>({
      query: (id) => ({ url: `/reviews/${id}/comments`, params: { page: 1, limit: 50 } }),
      transformResponse: (r: unknown) => listOf<CommentView>(r).items,
      providesTags: (_r, _e, id) => [{ type: 'Comments', id }],
    }),
    addComment: b.mutation<CommentView, { reviewId: string; content: string }>({
      query: ({ reviewId, content }) => ({ url: `/reviews/${reviewId}/comments`, method: 'POST', body: { content } }),
      transformResponse: (r: unknown) => data<CommentView>(r),
      invalidatesTags: (_r, _e, a) => [{ type: 'Comments', id: a.reviewId }],
    }),
    updateComment: b.mutation<CommentView, { id: string; reviewId: string; content: string }>({
      query: ({ id, content }) => ({ url: `/comments/${id}`, method: 'PUT', body: { content } }),
      transformResponse: (r: unknown) => data<CommentView>(r),
      invalidatesTags: (_r, _e, a) => [{ type: 'Comments', id: a.reviewId }],
    }),
    deleteComment: b.mutation<void, { id: string; reviewId: string }>({
      query: ({ id }) => ({ url: `/comments/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Comments', id: a.reviewId }],
    }),
    saveReview: b.mutation<void, { id: string; save: boolean }>({
      query: ({ id, save }) => ({ url: `/saved/reviews/${id}`, method: save ? 'POST' : 'DELETE' }),
      invalidatesTags: ['Saved'],
    }),
    reportReview: b.mutation<void, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/reviews/${id}/report`, method: 'POST', body: { reason } }),
    }),
    reportComment: b.mutation<void, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/comments/${id}/report`, method: 'POST', body: { reason } }),
    }),
  }),
});

export const {
  useFeedQuery,
  useReviewsQuery,
  useReviewQuery,
  useCreateReviewMutation,
  useUpdateReviewMutation,
  useDeleteReviewMutation,
  useToggleLikeMutation,
  useCommentsQuery,
  useAddCommentMutation,
  useUpdateCommentMutation,
  useDeleteCommentMutation,
  useSaveReviewMutation,
  useReportReviewMutation,
  useReportCommentMutation,
  useReviewHistoryQuery,
} = reviewsApi;

const REVIEW_INVALID = 'reviewErrors.invalid';
const REVIEW_NO_PRODUCT = 'reviewErrors.noProduct';
const REVIEW_SIGNED_OUT = 'reviewErrors.signedOut';
const REVIEW_NO_REPLY = 'reviewErrors.noReply';
const REVIEW_FAILED = 'reviewErrors.failed';

/** The create-review text of each code reviews and the gateway answer with: a new reviews code does not compile until it has one. */
const REVIEW_TEXT_BY_CODE: Record<ReviewsErrorCode | CommonErrorCode, TextKey> = {
  VALIDATION_FAILED: REVIEW_INVALID,
  BAD_REQUEST: REVIEW_INVALID,
  CANNOT_REPORT_OWN_REVIEW: REVIEW_INVALID,
  IMAGE_REQUIRED: REVIEW_INVALID,
  INVALID_UPLOAD: REVIEW_INVALID,
  NOT_FOUND: REVIEW_NO_PRODUCT,
  PRODUCT_NOT_FOUND: REVIEW_NO_PRODUCT,
  REVIEW_NOT_FOUND: REVIEW_NO_PRODUCT,
  COMMENT_NOT_FOUND: REVIEW_NO_PRODUCT,
  MEDIA_NOT_FOUND: REVIEW_NO_PRODUCT,
  UNAUTHORIZED: REVIEW_SIGNED_OUT,
  INVALID_TOKEN: REVIEW_SIGNED_OUT,
  FORBIDDEN: REVIEW_FAILED,
  CONFLICT: REVIEW_FAILED,
  PAYLOAD_TOO_LARGE: REVIEW_FAILED,
  UNSUPPORTED_MEDIA_TYPE: REVIEW_FAILED,
  RATE_LIMITED: REVIEW_FAILED,
  INTERNAL: REVIEW_FAILED,
  BAD_GATEWAY: REVIEW_FAILED,
  SERVICE_UNAVAILABLE: REVIEW_FAILED,
  GATEWAY_TIMEOUT: REVIEW_FAILED,
  ALREADY_REVIEWED: REVIEW_FAILED,
  REVIEW_CHANGED: REVIEW_FAILED,
  NOT_REVIEW_AUTHOR: REVIEW_FAILED,
  USER_BLOCKED: REVIEW_FAILED,
  NOT_PRODUCT_CREATOR: REVIEW_FAILED,
  NOT_COMMENT_AUTHOR: REVIEW_FAILED,
  ALREADY_REPORTED: REVIEW_FAILED,
  UNSUPPORTED_IMAGE_TYPE: REVIEW_FAILED,
  FILE_TOO_LARGE: REVIEW_FAILED,
  LIST_NOT_FOUND: REVIEW_FAILED,
  NOT_LIST_OWNER: REVIEW_FAILED,
  DEFAULT_LIST_FIXED: REVIEW_FAILED,
  FILTER_NOT_FOUND: REVIEW_FAILED,
  TOO_MANY_FILTERS: REVIEW_FAILED,
  REPORT_NOT_FOUND: REVIEW_FAILED,
  MODERATOR_ONLY: REVIEW_FAILED,
  ADMIN_ONLY: REVIEW_FAILED,
  MODERATION_TARGET_NOT_FOUND: REVIEW_FAILED,
  CANNOT_MODERATE_SELF: REVIEW_FAILED,
  CANNOT_REPORT_OWN_COMMENT: REVIEW_INVALID,
};

/** Review create failure (part 1 §8): the server's message as 'API Error: ...', else by code. */
export function reviewErrorText(err: { status?: number | string; data?: unknown } | undefined): string {
  const m = (err?.data as { message?: unknown } | undefined)?.message;
  const msg = typeof m === 'string' ? m : Array.isArray(m) ? String(m[0]) : null;
  // the server writes in English: a Turkish screen says it by code
  if (msg && document.documentElement.lang !== 'tr') return translate('authErrors.apiError', { message: msg });
  if (err?.status === 'FETCH_ERROR' || err?.status === 'TIMEOUT_ERROR') return translate(REVIEW_NO_REPLY);
  const code = errorCode(err);
  if (isSignedOutCode(code)) return translate(REVIEW_SIGNED_OUT);
  return translate((code && REVIEW_TEXT_BY_CODE[code as ReviewsErrorCode | CommonErrorCode]) || REVIEW_FAILED);
}

