import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { AuthUser, UserSettings } from '@app/contracts';
import { makeStore } from '../../core/store';
import { signedIn } from '../../core/session';
import { applyLanguage } from '../../shared/i18n';
import { activeLanguage } from '../../shared/i18n/translate';
import { SettingsPage } from './SettingsPage';

/**
 * A member from before the language work (issue 43): their account has no language stored, so its mail and
 * notifications are in the default, English, which /auth/me names; the settings still hold the Turkish an
 * older release wrote as its default.
 */
const user: AuthUser = { id: 'u1', username: 'ayse', email: 'ayse@example.com', display_name: 'Ayşe', name: 'Ayşe', avatar: null, created_at: '', role: 'member', language: 'en' };
const stored: UserSettings = { notification_email: true, notification_push: true, privacy_profile: 'public', theme: 'system', language: 'tr' };

/** The API as jsdom's fetch: each request recorded, answered from here. */
function serve(account: AuthUser = user): Array<{ method: string; path: string; body: unknown }> {
  const asked: Array<{ method: string; path: string; body: unknown }> = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(String(input));
    const { pathname } = new URL(request.url);
    const body = request.method === 'GET' ? undefined : await request.clone().json();
    asked.push({ method: request.method, path: pathname, body });
    const reply = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200, headers: { 'content-type': 'application/json' } });
    if (pathname === '/api/auth/me') return reply(account);
    if (pathname === '/api/users/settings') return reply({ ...stored, ...(body as object) });
    if (pathname.startsWith('/api/users/profile/')) return reply({ id: 'u1', username: 'ayse', display_name: 'Ayşe', bio: '', profile_image_url: null });
    return reply({ items: [] });
  });
  vi.stubGlobal('Request', class extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    }
  });
  return asked;
}

function renderSettings() {
  const store = makeStore();
  store.dispatch(signedIn({ token: 'a.b.c', user }));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <SettingsPage />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
  await applyLanguage('en');
});

describe("the member's language is the one in effect everywhere (issue 43)", () => {
  it("Settings shows the account's language, the one its mail is written in, not the settings' stored default", async () => {
    serve();
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Appearance' }));
    const select = within(screen.getByTestId('settings-appearance')).getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect(select.value).toBe('en');
  });

  it('a save of another section names the language shown, so the settings cannot announce another one', async () => {
    const asked = serve();
    renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    fireEvent.click(within(screen.getByTestId('settings-notifications')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(asked.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(asked.find((r) => r.method === 'PUT')?.body).toEqual({ notification_email: true, notification_push: true, language: 'en' });
  });

  it('a language chosen and saved is shown, applied and kept in the session at once', async () => {
    const asked = serve();
    const store = renderSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Appearance' }));
    const form = screen.getByTestId('settings-appearance');
    fireEvent.change(within(form).getByRole('combobox', { name: 'Language' }), { target: { value: 'tr' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(activeLanguage()).toBe('tr'));
    expect(asked.find((r) => r.method === 'PUT')?.body).toMatchObject({ language: 'tr' });
    expect(store.getState().session.user?.language).toBe('tr');
    expect((within(screen.getByTestId('settings-appearance')).getByRole('combobox', { name: 'Dil' }) as HTMLSelectElement).value).toBe('tr');
  });
});
