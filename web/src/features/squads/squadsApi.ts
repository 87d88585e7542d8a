import { api, data, listOf } from '../../core/api';
import type { SquadRole } from '@app/contracts';
import type { ActivityView, ConversationView, JoinRequestView, SquadView, SquadStats } from '@app/contracts';
import { translate } from '../../shared/i18n';

export const SQUAD_CATEGORIES = ['General', 'Technology', 'Gaming', 'Books', 'Movies', 'Music', 'Sports', 'Food', 'Travel', 'Art', 'Science', 'Fitness'];
export const JOIN_MESSAGE_MAX = 250;

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
} = squadsApi;

/** Whether the explore card's join action may be taken: not a member, no request pending or rejected. */
export function canRequestJoin(s: Pick<SquadView, 'is_member' | 'join_request_status'>): boolean {
  return !s.is_member && !s.join_request_status;
}

/** Explore card join label (part 2 §4); every squad's join is a request an admin approves (issue 43 §5). */
export function exploreJoinLabel(s: Pick<SquadView, 'is_member' | 'join_request_status'>): string {
  if (s.is_member) return translate('squads.member');
  if (s.join_request_status === 'pending') return translate('squads.requestSent');
  if (s.join_request_status === 'rejected') return translate('squads.requestRejected');
  return translate('squads.requestToJoin');
}

/** Squad detail join label for non-members (part 2 §2). */
export function detailJoinLabel(s: Pick<SquadView, 'join_request_status'>): string {
  if (s.join_request_status === 'pending') return translate('squads.requestPending');
  if (s.join_request_status === 'rejected') return translate('squads.requestAgain');
  return translate('squads.requestToJoin');
}
