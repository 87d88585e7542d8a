import { api, data, listOf } from '../../core/api';
import type { ConnectionRow, FollowStatus, PersonRow, SuggestionRow, UserCard } from '@app/contracts';

/** A person as the people lists draw one: a suggestion or search row. */
export type PersonCard = UserCard & { bio?: string };

export const EMPTY_STATUS: FollowStatus = { isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false };

export interface FollowReply {
  message?: string;
  data?: { status?: string };
}

export const peopleApi = api.injectEndpoints({
  endpoints: (b) => ({
    /**
     * People to Follow: the social service's suggestions only. No fallback to `/auth/users`: that
     * list is staff-only (issue 45 §8), and it knew nothing of blocks; a failure shows the panel's error.
     */
    suggestions: b.query<PersonCard[], number>({
      query: (limit) => ({ url: '/users/suggestions', params: { limit } }),
      transformResponse: (r: unknown) => listOf<SuggestionRow>(r).items,
      providesTags: ['People'],
    }),
    searchUsers: b.query<PersonRow[], string>({
      async queryFn(search, _api, _extra, fetch) {
        const r = await fetch({ url: '/users/search', params: { search, limit: 50 } });
        // a failed user search gives an empty list (part 2 §7)
        return { data: r.error ? [] : listOf<PersonRow>(r.data).items };
      },
      providesTags: ['People'],
    }),
    followStatus: b.query<FollowStatus, string>({
      async queryFn(id, _api, _extra, fetch) {
        const r = await fetch(`/follows/status/${id}`);
        // all false on failure (part 2 §3)
        return { data: r.error ? EMPTY_STATUS : { ...EMPTY_STATUS, ...(data<FollowStatus>(r.data) ?? {}) } };
      },
      providesTags: (_r, _e, id) => [{ type: 'Follow', id }],
    }),
    follow: b.mutation<FollowReply, string>({
      query: (id) => ({ url: `/follows/users/${id}`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Follow', id }, 'Profile', 'Feed', 'Stats'],
    }),
    unfollow: b.mutation<void, string>({
      query: (id) => ({ url: `/follows/users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'Follow', id }, 'Profile', 'Feed', 'Stats'],
    }),
    followers: b.query<ConnectionRow[], string | undefined>({
      query: (id) => ({ url: id ? `/follows/followers/${id}` : '/follows/followers', params: { limit: 100 } }),
      transformResponse: (r: unknown) => listOf<ConnectionRow>(r).items,
      providesTags: ['Follow'],
    }),
    following: b.query<ConnectionRow[], string | undefined>({
      query: (id) => ({ url: id ? `/follows/following/${id}` : '/follows/following', params: { limit: 100 } }),
      transformResponse: (r: unknown) => listOf<ConnectionRow>(r).items,
      providesTags: ['Follow'],
    }),
    followRequests: b.query<ConnectionRow[], void>({
      query: () => '/follows/requests',
      transformResponse: (r: unknown) => listOf<ConnectionRow>(r).items,
      providesTags: ['Follow'],
    }),
    decideFollowRequest: b.mutation<void, { userId: string; action: 'accept' | 'reject' }>({
      query: ({ userId, action }) => ({ url: `/follows/requests/${userId}/${action}`, method: 'POST' }),
      invalidatesTags: ['Follow', 'Profile', 'Notification'],
    }),
    block: b.mutation<void, { id: string; block: boolean }>({
      query: ({ id, block }) => ({ url: `/users/${id}/block`, method: block ? 'POST' : 'DELETE' }),
      invalidatesTags: ['Follow', 'Profile', 'Feed', 'People'],
    }),
    /** Server-side and silent (issue 22 §1): every list of reviews, comments and notifications changes for the muter. */
    mute: b.mutation<void, { id: string; mute: boolean }>({
      query: ({ id, mute }) => ({ url: `/users/${id}/mute`, method: mute ? 'POST' : 'DELETE' }),
      invalidatesTags: ['Mutes', 'Feed', 'Review', 'Comments', 'Saved', 'Activity', 'Notification'],
    }),
    mutes: b.query<ConnectionRow[], void>({
      query: () => ({ url: '/users/mutes', params: { limit: 100 } }),
      transformResponse: (r: unknown) => listOf<ConnectionRow>(r).items,
      providesTags: ['Mutes'],
    }),
  }),
});

export const {
  useSuggestionsQuery,
  useSearchUsersQuery,
  useFollowStatusQuery,
  useFollowMutation,
  useUnfollowMutation,
  useFollowersQuery,
  useFollowingQuery,
  useFollowRequestsQuery,
  useDecideFollowRequestMutation,
  useBlockMutation,
  useMuteMutation,
  useMutesQuery,
} = peopleApi;

/** A follow reply means pending when its message is 'Follow request sent' or its status is 'pending' (part 1 §4). */
export function followReplyPending(reply: FollowReply | undefined): boolean {
  return reply?.message === 'Follow request sent' || reply?.data?.status === 'pending';
}
