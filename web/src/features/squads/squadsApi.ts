import { api, data, listOf } from '../../core/api';
import type { SquadRole } from '@app/contracts';
import type { ActivityView, ConversationView, JoinRequestView, ReviewView, SquadView, SquadStats } from '@app/contracts';
import { translate } from '../../shared/i18n';

export const SQUAD_CATEGORIES = ['General', 'Technology', 'Gaming', 'Books', 'Movies', 'Music', 'Sports', 'Food', 'Travel', 'Art', 'Science', 'Fitness'];
export const JOIN_MESSAGE_MAX = 250;
/** Members whose reviews make the squad rating (one `GET /reviews?userId=` each). */
export const RATING_MEMBERS_MAX = 20;

export const squadsApi = api.injectEndpoints({
  endpoints: (b) => ({
    mySquads: b.query<SquadView[], void>({
      query: () => '/squads/my-squads',
      transformResponse: (r: unknown) => listOf<SquadView>(r).items,
      providesTags: ['Squad'],
    }),
    squadStats: b.query<SquadStats, void>({
      query: () => '/squads/stats',
      transformResponse: (r: unknown) => data<SquadStats>(r),
      providesTags: ['Squad'],
    }),
    discoverSquads: b.query<{ items: SquadView[]; totalPages: number }, { page: number; search?: string; category?: string }>({
      query: ({ page, search, category }) => ({
        url: '/squads/discover',
        params: { page, limit: 10, ...(search ? { search } : {}), ...(category ? { category } : {}) },
      }),
      transformResponse: (r: { data?: SquadView[]; pagination?: { totalPages?: number }; meta?: { totalPages?: number } }) => ({
        items: Array.isArray(r.data) ? r.data : [],
        totalPages: r.pagination?.totalPages ?? r.meta?.totalPages ?? 1,
      }),
      providesTags: ['Squad'],
    }),
    squad: b.query<SquadView, string>({
      query: (id) => `/squads/${id}`,
      transformResponse: (r: unknown) => data<SquadView>(r),
      providesTags: (_r, _e, id) => [{ type: 'Squad', id }, 'Squad'],
    }),
    createSquad: b.mutation<SquadView, { name: string; description: string; category: string }>({
      query: (body) => ({ url: '/squads', method: 'POST', body }),
      transformResponse: (r: unknown) => data<SquadView>(r),
      invalidatesTags: ['Squad', 'Stats'],
    }),
    updateSquad: b.mutation<SquadView, { id: string; name?: string; description?: string; category?: string }>({
      query: ({ id, ...body }) => ({ url: `/squads/${id}`, method: 'PUT', body }),
      transformResponse: (r: unknown) => data<SquadView>(r),
      invalidatesTags: ['Squad'],
    }),
    deleteSquad: b.mutation<void, string>({
      query: (id) => ({ url: `/squads/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Squad', 'Stats'],
    }),
    requestJoin: b.mutation<void, { id: string; message?: string }>({
      query: ({ id, message }) => ({ url: `/squads/${id}/request-join`, method: 'POST', body: message ? { message } : {} }),
      invalidatesTags: ['Squad'],
    }),
    joinRequests: b.query<JoinRequestView[], string>({
      query: (id) => ({ url: `/squads/${id}/join-requests`, params: { status: 'pending' } }),
      transformResponse: (r: unknown) => listOf<JoinRequestView>(r).items,
      providesTags: (_r, _e, id) => [{ type: 'SquadRequests', id }],
    }),
    decideJoin: b.mutation<void, { id: string; requestId: string; action: 'approve' | 'reject' }>({
      query: ({ id, requestId, action }) => ({ url: `/squads/${id}/join-requests/${requestId}`, method: 'POST', body: { action } }),
      invalidatesTags: (_r, _e, a) => [{ type: 'SquadRequests', id: a.id }, { type: 'Squad', id: a.id }, 'Activity'],
    }),
    setMemberRole: b.mutation<void, { id: string; userId: string; role: SquadRole }>({
      query: ({ id, userId, role }) => ({ url: `/squads/${id}/members/${userId}`, method: 'PUT', body: { role } }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Squad', id: a.id }, 'Stats'],
    }),
    removeMember: b.mutation<void, { id: string; userId: string }>({
      query: ({ id, userId }) => ({ url: `/squads/${id}/members/${userId}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Squad', id: a.id }, 'Stats'],
    }),
    leaveSquad: b.mutation<void, string>({
      query: (id) => ({ url: `/squads/${id}/leave`, method: 'POST' }),
      invalidatesTags: ['Squad', 'Stats'],
    }),
    squadConversation: b.mutation<ConversationView, string>({
      query: (id) => `/messages/squads/${id}/conversation`,
      transformResponse: (r: unknown) => data<ConversationView>(r),
    }),
    /** Squad Rating: the average star rating of the reviews its members wrote (null when none is rated). */
    squadRating: b.query<number | null, string[]>({
      async queryFn(memberIds, _api, _extra, fetch) {
        const pages = await Promise.all(
          memberIds.slice(0, RATING_MEMBERS_MAX).map((userId) => fetch({ url: '/reviews', params: { userId, page: 1, limit: 100 } })),
        );
        const failed = pages.find((p) => p.error);
        if (failed?.error) return { error: failed.error };
        return { data: averageRating(pages.flatMap((p) => listOf<ReviewView>(p.data).items)) };
      },
      providesTags: ['Review'],
    }),
    activities: b.query<ActivityView[], { page?: number; limit?: number }>({
      query: ({ page = 1, limit = 20 }) => ({ url: '/activities/feed', params: { page, limit } }),
      transformResponse: (r: unknown) => listOf<ActivityView>(r).items,
      providesTags: ['Activity'],
    }),
  }),
});

export const {
  useMySquadsQuery,
  useSquadStatsQuery,
  useDiscoverSquadsQuery,
  useSquadQuery,
  useCreateSquadMutation,
  useUpdateSquadMutation,
  useDeleteSquadMutation,
  useRequestJoinMutation,
  useJoinRequestsQuery,
  useDecideJoinMutation,
  useLeaveSquadMutation,
  useSetMemberRoleMutation,
  useRemoveMemberMutation,
  useSquadConversationMutation,
  useActivitiesQuery,
  useSquadRatingQuery,
} = squadsApi;

/** Average of the rated reviews to one decimal, null when none carries a rating. */
export function averageRating(reviews: Array<Pick<ReviewView, 'rating'>>): number | null {
  const rated = reviews.map((r) => Number(r.rating)).filter((n) => n >= 1 && n <= 5);
  if (rated.length === 0) return null;
  return Math.round((rated.reduce((a, b) => a + b, 0) / rated.length) * 10) / 10;
}

/** Explore card join label (part 2 §4). */
export function exploreJoinLabel(s: Pick<SquadView, 'is_member' | 'join_request_status'>): string {
  if (s.is_member) return translate('squads.member');
  if (s.join_request_status === 'pending') return translate('squads.requestSent');
  if (s.join_request_status === 'rejected') return translate('squads.requestRejected');
  return translate('squads.join');
}

/** Squad detail join label for non-members (part 2 §2). */
export function detailJoinLabel(s: Pick<SquadView, 'join_request_status'>): string {
  if (s.join_request_status === 'pending') return translate('squads.requestPending');
  if (s.join_request_status === 'rejected') return translate('squads.requestAgain');
  return translate('squads.requestToJoin');
}

/**
 * Activity level from the members who joined in the last 30 days (replaces the spec's fixed 'High').
 * 'High' needs at least 3 recent joins: a new squad of one or two is not highly active.
 */
export function activityLevel(joinsLast30Days: number, memberCount: number): string {
  if (memberCount <= 0) return 'Low';
  const ratio = joinsLast30Days / memberCount;
  if (joinsLast30Days >= 5 || (joinsLast30Days >= 3 && ratio >= 0.3)) return 'High';
  if (joinsLast30Days >= 1) return 'Medium';
  return 'Low';
}
