import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '@app/contracts';
import { authApi } from '../features/auth/authApi';
import { signedIn, TOKEN_KEY, USER_KEY } from '../core/session';
import { makeStore } from '../core/store';

/** Issue 11 §7: a 401 from the API ends the session, in the store and in storage. */

const user = { id: 'u1', username: 'ayse', email: 'ayse@demo.local', display_name: 'Ayşe' } as AuthUser;

function replyWith(status: number, body: unknown) {
  // jsdom has no fetch: RTK builds a Request from a relative URL, so answer whatever is asked.
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('Request', class extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    }
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('a 401 reply clears the session', () => {
  it('drops the token and the user from the store and from localStorage', async () => {
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user }));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('a.b.c');

    replyWith(401, { success: false, message: 'Invalid or expired token' });
    await store.dispatch(authApi.endpoints.me.initiate());

    expect(store.getState().session).toMatchObject({ token: null, user: null });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('keeps the session on other errors', async () => {
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user }));
    replyWith(503, { success: false, message: 'The auth service is unavailable' });
    await store.dispatch(authApi.endpoints.me.initiate());
    expect(store.getState().session.token).toBe('a.b.c');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('a.b.c');
  });
});
