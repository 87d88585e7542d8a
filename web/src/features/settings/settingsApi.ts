import { api, data } from '../../core/api';
import type { UserSettings } from '@app/contracts';

export const settingsApi = api.injectEndpoints({
  endpoints: (b) => ({
    settings: b.query<UserSettings, void>({
      query: () => '/users/settings',
      transformResponse: (r: unknown) => data<UserSettings>(r),
      providesTags: ['Settings'],
    }),
    updateSettings: b.mutation<UserSettings, Partial<UserSettings>>({
      query: (body) => ({ url: '/users/settings', method: 'PUT', body }),
      transformResponse: (r: unknown) => data<UserSettings>(r),
      invalidatesTags: ['Settings'],
    }),
  }),
});

export const { useSettingsQuery, useUpdateSettingsMutation } = settingsApi;

/** A theme saved as dark turns dark mode on; any other value turns it off (part 2 §2). */
export function darkFromTheme(theme: string | undefined): boolean {
  return theme === 'dark';
}

/**
 * The account's language and theme, asked with a new session's token before the store has it, so the
 * first screen after a sign-in is drawn in them on any browser. Null when they cannot be had (the
 * browser's own stay).
 */
export async function accountLook(token: string): Promise<Pick<UserSettings, 'language' | 'theme'> | null> {
  try {
    const reply = await fetch('/api/users/settings', { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) });
    return reply.ok ? data<UserSettings>(await reply.json()) : null;
  } catch {
    return null;
  }
}
