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
 * The account's theme, asked with a new session's token before the store has it, so the first screen
 * after a sign-in is drawn in it on any browser (its language comes with the sign-in's reply). Null when it
 * cannot be had (the browser's own stays).
 */
export async function accountTheme(token: string): Promise<UserSettings['theme'] | null> {
  try {
    const reply = await fetch('/api/users/settings', { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5000) });
    return reply.ok ? data<UserSettings>(await reply.json()).theme : null;
  } catch {
    return null;
  }
}
