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
