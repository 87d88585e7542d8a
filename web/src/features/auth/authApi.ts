import type { AuthResult, AuthUser, PublicUser } from '@app/contracts';
import { api, listOf } from '../../core/api';

export interface Envelope<T> {
  success?: boolean;
  data?: T;
  message?: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (b) => ({
    login: b.mutation<Envelope<AuthResult>, { email: string; password: string }>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: b.mutation<Envelope<AuthResult>, { email: string; name: string; password: string }>({
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
    users: b.query<PublicUser[], void>({
      query: () => '/auth/users?limit=100',
      transformResponse: (r: unknown) => listOf<PublicUser>(r).items,
    }),
  }),
});

export const { useLoginMutation, useRegisterMutation, useMeQuery, useUsersQuery, useLogoutMutation, useChangePasswordMutation } = authApi;

/** True when a login or register reply carries the success flag and data holding token and user (part 1 §5). */
export function validAuthReply(r: unknown): r is Envelope<AuthResult> & { data: AuthResult } {
  const e = r as Envelope<AuthResult> | undefined;
  return !!e && e.success === true && !!e.data && typeof e.data.token === 'string' && !!e.data.user;
}
