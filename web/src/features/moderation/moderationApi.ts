import type { AppointableRole, ModerationLogEntryView, ModerationReportView, ReportStatus, UserCard } from '@app/contracts';
import { api, data } from '../../core/api';

export interface StaffMember {
  user: UserCard;
  role: string;
}

export const moderationApi = api.injectEndpoints({
  endpoints: (b) => ({
    moderationReports: b.query<ModerationReportView[], ReportStatus>({
      query: (status) => ({ url: '/moderation/reports', params: { status, limit: 50 } }),
      transformResponse: (r: unknown) => data<ModerationReportView[]>(r),
      providesTags: ['Moderation'],
    }),
    moderationLog: b.query<ModerationLogEntryView[], void>({
      query: () => ({ url: '/moderation/log', params: { limit: 50 } }),
      transformResponse: (r: unknown) => data<ModerationLogEntryView[]>(r),
      providesTags: ['Moderation'],
    }),
    moderationStaff: b.query<StaffMember[], void>({
      query: () => '/moderation/staff',
      transformResponse: (r: unknown) => data<StaffMember[]>(r),
      providesTags: ['Moderation'],
    }),
    dismissReport: b.mutation<void, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/moderation/reports/${encodeURIComponent(id)}/dismiss`, method: 'POST', body: { reason } }),
      invalidatesTags: ['Moderation'],
    }),
    hideReview: b.mutation<void, { id: string; reason: string; hide: boolean }>({
      query: ({ id, reason, hide }) => ({ url: `/moderation/reviews/${encodeURIComponent(id)}/${hide ? 'hide' : 'unhide'}`, method: 'POST', body: { reason } }),
      invalidatesTags: ['Moderation', 'Feed', 'Review', 'Product'],
    }),
    hideComment: b.mutation<void, { id: string; reviewId: string; reason: string; hide: boolean }>({
      query: ({ id, reason, hide }) => ({ url: `/moderation/comments/${encodeURIComponent(id)}/${hide ? 'hide' : 'unhide'}`, method: 'POST', body: { reason } }),
      invalidatesTags: (_r, _e, { reviewId }) => ['Moderation', 'Feed', 'Review', { type: 'Comments', id: reviewId }],
    }),
    suspendMember: b.mutation<{ until: string }, { userId: string; hours: number; reason: string }>({
      query: ({ userId, hours, reason }) => ({ url: `/moderation/suspensions/${encodeURIComponent(userId)}`, method: 'POST', body: { hours, reason } }),
      transformResponse: (r: unknown) => data<{ until: string }>(r),
      invalidatesTags: ['Moderation'],
    }),
    setRole: b.mutation<void, { userId: string; role: AppointableRole; reason: string }>({
      query: ({ userId, role, reason }) => ({ url: `/moderation/roles/${encodeURIComponent(userId)}`, method: 'PUT', body: { role, reason } }),
      invalidatesTags: ['Moderation'],
    }),
  }),
});

export const {
  useModerationReportsQuery,
  useModerationLogQuery,
  useModerationStaffQuery,
  useDismissReportMutation,
  useHideReviewMutation,
  useHideCommentMutation,
  useSuspendMemberMutation,
  useSetRoleMutation,
} = moderationApi;
