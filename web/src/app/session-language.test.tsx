import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { AuthUser } from '@app/contracts';
import { makeStore } from '../core/store';
import { signedIn } from '../core/session';
import { applyLanguage } from '../shared/i18n';
import { activeLanguage } from '../shared/i18n/translate';
import { AppTree } from './AppTree';

const user: AuthUser = { id: 'u1', username: 'ayse', email: 'ayse@example.com', display_name: 'Ayşe', name: 'Ayşe', avatar: null, created_at: '', role: 'member', language: 'en' };

/** jsdom's fetch: /auth/me names the account in Turkish, the settings (an older release's copy) English; every path asked is recorded. */
function serve(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const { pathname } = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(pathname);
    const data = pathname === '/api/auth/me' ? { ...user, language: 'tr' } : pathname === '/api/users/settings' ? { language: 'en', theme: 'system' } : { items: [] };
    return new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('Request', class extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    }
  });
  return asked;
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  await applyLanguage('en');
});

describe("the account's language at start (issue 43)", () => {
  it('is applied from the session check, the language its mail is written in, without asking the settings', async () => {
    const asked = serve();
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user }));
    render(<AppTree store={store} router={({ children }) => <MemoryRouter initialEntries={['/nowhere']}>{children}</MemoryRouter>} />);
    await waitFor(() => expect(activeLanguage()).toBe('tr'));
    expect(store.getState().session.user?.language).toBe('tr');
    expect(asked).toContain('/api/auth/me');
    expect(asked).not.toContain('/api/users/settings');
  });
});
