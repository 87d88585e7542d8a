import type { RecoveryCodesView, TwoFactorSetupView, TwoFactorStatusView } from '@app/contracts';
import { api, data } from '../../core/api';

/** Two-factor sign-in settings of the signed-in member (auth service, /api/auth/2fa). */
export const accountApi = api.injectEndpoints({
  endpoints: (b) => ({
    twoFactorStatus: b.query<TwoFactorStatusView, void>({
      query: () => '/auth/2fa',
      transformResponse: (r: unknown) => data<TwoFactorStatusView>(r),
      providesTags: ['Me'],
    }),
    setupTwoFactor: b.mutation<TwoFactorSetupView, void>({
      query: () => ({ url: '/auth/2fa/setup', method: 'POST' }),
      transformResponse: (r: unknown) => data<TwoFactorSetupView>(r),
    }),
    enableTwoFactor: b.mutation<RecoveryCodesView, { code: string }>({
      query: (body) => ({ url: '/auth/2fa/enable', method: 'POST', body }),
      transformResponse: (r: unknown) => data<RecoveryCodesView>(r),
      invalidatesTags: ['Me'],
    }),
    disableTwoFactor: b.mutation<void, { password: string }>({
      query: (body) => ({ url: '/auth/2fa/disable', method: 'POST', body }),
      invalidatesTags: ['Me'],
    }),
    /** DELETE /users/me (routed to auth): erases the account everywhere and ends every session. */
    deleteAccount: b.mutation<void, { password: string; code?: string }>({
      query: (body) => ({ url: '/users/me', method: 'DELETE', body }),
    }),
  }),
});

export const {
  useTwoFactorStatusQuery,
  useSetupTwoFactorMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
  useDeleteAccountMutation,
} = accountApi;
