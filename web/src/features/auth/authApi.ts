import type { AuthResult, AuthUser, Language, TwoFactorChallenge } from '@app/contracts';
import { api } from '../../core/api';

export interface Envelope<T> {
  success?: boolean;
  data?: T;
  message?: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (b) => ({
    /** A member with two-factor sign-in on gets a challenge instead of a token: verifyTwoFactor finishes. */
    login: b.mutation<Envelope<AuthResult | TwoFactorChallenge>, { email: string; password: string }>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    verifyTwoFactor: b.mutation<Envelope<AuthResult>, { challenge: string; code: string }>({
      query: (body) => ({ url: '/auth/2fa/verify', method: 'POST', body }),
    }),
    /** Always the same answer, whether or not the email has an account. */
    requestPasswordReset: b.mutation<Envelope<null>, { email: string; language: Language }>({
      query: (body) => ({ url: '/auth/password-reset', method: 'POST', body }),
    }),
    confirmPasswordReset: b.mutation<Envelope<null>, { token: string; new_password: string }>({
      query: (body) => ({ url: '/auth/password-reset/confirm', method: 'POST', body }),
    }),
    register: b.mutation<Envelope<AuthResult>, { email: string; name: string; password: string; language: Language }>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
    me: b.query<AuthUser, void>({
      query: () => '/auth/me',
      transformResponse: (r: Envelope<AuthUser>) => r.data as AuthUser,
      providesTags: ['Me'],
    }),
    /** Ends the session on the server (its token stops working); the client clears its own either way. */
    logout: b.mutation<void, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    /** The reply carries a fresh token: the old one is no longer valid. */
    changePassword: b.mutation<{ token: string }, { current_password: string; new_password: string }>({
      query: (body) => ({ url: '/auth/password', method: 'PUT', body }),
      transformResponse: (r: Envelope<{ token: string }>) => r.data as { token: string },
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useMeQuery,
  useLogoutMutation,
  useChangePasswordMutation,
  useVerifyTwoFactorMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
} = authApi;

/** The language the newcomer is using (the page's): the account's at sign-up, a reset email's. */
export function emailLanguage(): Language {
  return document.documentElement.lang.toLowerCase().startsWith('tr') ? 'tr' : 'en';
}

/** A login reply asking for the second factor. */
export function challengeOf(r: unknown): string | null {
  const d = (r as Envelope<Partial<TwoFactorChallenge>> | undefined)?.data;
  return d?.two_factor_required === true && typeof d.challenge === 'string' ? d.challenge : null;
}

/** True when a login or register reply carries the success flag and data holding token and user (part 1 §5). */
export function validAuthReply(r: unknown): r is Envelope<AuthResult> & { data: AuthResult } {
  const e = r as Envelope<AuthResult> | undefined;
  return !!e && e.success === true && !!e.data && typeof e.data.token === 'string' && !!e.data.user;
}
