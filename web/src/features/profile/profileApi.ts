import { api, data, errorCode } from '../../core/api';
import type { UserProfile, UserStats } from '@app/contracts';
import { translate } from '../../shared/i18n';

export const profileApi = api.injectEndpoints({
  endpoints: (b) => ({
    profile: b.query<UserProfile, string>({
      // the spec's cache-busting query; the server accepts and ignores it
      query: (username) => ({ url: `/users/profile/${encodeURIComponent(username)}`, params: { _t: Date.now() } }),
      transformResponse: (r: unknown) => data<UserProfile>(r),
      providesTags: (_r, _e, u) => [{ type: 'Profile', id: u }, 'Profile'],
    }),
    updateProfile: b.mutation<UserProfile, Partial<Pick<UserProfile, 'display_name' | 'username' | 'bio' | 'profile_image_url'>>>({
      query: (body) => ({ url: '/users/profile', method: 'PUT', body }),
      transformResponse: (r: unknown) => data<UserProfile>(r),
      invalidatesTags: ['Profile', 'Me'],
    }),
    stats: b.query<UserStats, void>({
      async queryFn(_a, _api, _extra, fetch) {
        const r = await fetch('/users/stats');
        // on failure zero counts (part 1 §7)
        if (r.error) return { data: { reviewsCount: 0, squadsCount: 0, friendsCount: 0 } };
        return { data: data<UserStats>(r.data) };
      },
      providesTags: ['Stats'],
    }),
  }),
});

export const { useProfileQuery, useUpdateProfileMutation, useStatsQuery } = profileApi;

/** A visitor's placeholder profile (part 1 §6): id 0, zero counts, nothing followed. */
export function placeholderProfile(username: string): UserProfile {
  return {
    id: '0',
    username,
    display_name: username,
    name: username,
    bio: '',
    profile_image_url: null,
    created_at: new Date().toISOString(),
    followers_count: 0,
    following_count: 0,
    reviews_count: 0,
    follow_status: { isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false },
    privacy_profile: 'public',
    can_view_content: true,
  };
}

/** Whether a profile load failed because there is no such member. */
export function profileMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'USER_NOT_FOUND' || code === 'NOT_FOUND';
}

/** Profile load failure text (part 1 §8). */
export function profileErrorText(err: { status?: number | string; data?: unknown }, username: string): string {
  if (profileMissing(err)) return translate('profile.missing', { username });
  if (err.status === 'FETCH_ERROR' || err.status === 'TIMEOUT_ERROR') return translate('profile.noReply');
  const m = (err.data as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' && m && document.documentElement.lang !== 'tr' ? m : translate('profile.serverError', { status: err.status });
}
