import { createApi, fetchBaseQuery, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { signedOut } from './session';
import { apiReplied, apiUnreachable } from './network';
import { fetchWithEarly } from './early-replies';
import type { ErrorCode } from '@app/contracts';

interface WithSession {
  session: { token: string | null };
  network: { apiReachable: boolean };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  timeout: 10_000,
  // the first screen's calls were started by the entry (main.tsx): their replies are taken, not asked again
  fetchFn: fetchWithEarly,
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as WithSession).session.token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** Any 401 reply clears the session (part 1 §4, §8). */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  // no reply at all (not an error reply) is what the offline banner needs to know
  const replied = result.error?.status !== 'FETCH_ERROR' && result.error?.status !== 'TIMEOUT_ERROR';
  if (replied !== (api.getState() as WithSession).network.apiReachable) api.dispatch(replied ? apiReplied() : apiUnreachable());
  if (result.error && result.error.status === 401) {
    const hadToken = !!(api.getState() as WithSession).session.token;
    if (hadToken) api.dispatch(signedOut());
  }
  return result;
};

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'Me',
    'Feed',
    'Review',
    'Comments',
    'Product',
    'Notification',
    'Profile',
    'Follow',
    'People',
    'Mutes',
    'Settings',
    'Squad',
    'SquadRequests',
    'Conversation',
    'Messages',
    'Saved',
    'List',
    'Trending',
    'Activity',
    'Stats',
    'Filters',
    'Moderation',
  ],
  endpoints: () => ({}),
});

/** The message of a failed call: the server's message when present, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  // the server writes its messages in English: a Turkish screen says its own (fallback) text instead
  if (typeof document !== 'undefined' && document.documentElement.lang === 'tr') return fallback;
  const e = error as { data?: { message?: unknown }; error?: string } | undefined;
  const m = e?.data?.message;
  if (typeof m === 'string' && m) return m;
  if (Array.isArray(m) && m.length) return String(m[0]);
  return fallback;
}

/**
 * The code of a failed call (`ApiFailure.code`), what features decide their texts by. A reply
 * without an envelope (a proxy's page) gets the generic code of its status, as the backend's
 * `genericErrorCode` would; no reply at all (FETCH_ERROR, TIMEOUT_ERROR) has no code.
 */
export function errorCode(error: unknown): ErrorCode | undefined {
  const e = error as { status?: number | string; data?: unknown } | undefined;
  const code = (e?.data as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && code) return code as ErrorCode;
  return typeof e?.status === 'number' ? genericCode(e.status) : undefined;
}

/** libs/contracts' genericErrorCode, copied: the web imports types only from contracts (its index loads class-validator). */
function genericCode(status: number): ErrorCode | undefined {
  const byStatus: Record<number, ErrorCode> = {
    400: 'BAD_REQUEST',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
    502: 'BAD_GATEWAY',
    503: 'SERVICE_UNAVAILABLE',
    504: 'GATEWAY_TIMEOUT',
  };
  if (byStatus[status]) return byStatus[status];
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return status >= 500 ? 'INTERNAL' : undefined;
}

/** The codes a reply answers with when the caller is not (or no longer) signed in (the 401s). */
export function isSignedOutCode(code: ErrorCode | undefined): boolean {
  return code === 'UNAUTHORIZED' || code === 'INVALID_TOKEN' || code === 'ACCOUNT_GONE' || code === 'INVALID_CREDENTIALS';
}

/** Unwraps { success, data } envelopes. */
export function data<T>(reply: unknown): T {
  return (reply as { data: T }).data;
}

export function listOf<T>(reply: unknown, page = 1, limit = 10): { items: T[]; meta: { total: number; page: number; limit: number; totalPages: number } } {
  const r = reply as { data?: unknown; meta?: { total: number; page: number; limit: number; totalPages: number } } | undefined;
  const items = Array.isArray(r?.data) ? (r!.data as T[]) : [];
  const meta = r?.meta ?? { total: items.length, page, limit, totalPages: items.length ? 1 : 0 };
  return { items, meta };
}
