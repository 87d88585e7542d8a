import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '@app/contracts';
import { makeStore } from '../core/store';
import { signedIn } from '../core/session';
import { askEarly, firstCalls, takeEarly } from '../core/early-replies';
import { authApi } from '../features/auth/authApi';
import { notificationsApi } from '../features/notifications/notificationsApi';
import { reviewsApi } from '../features/reviews/reviewsApi';
import { productsApi } from '../features/products/productsApi';
import { profileApi } from '../features/profile/profileApi';

const user = { id: 'u1', username: 'ayse', email: 'ayse@demo.local', display_name: 'Ayşe' } as AuthUser;

/** Every URL the store asks for, answered with an empty envelope. */
function recordRequests(): string[] {
  const urls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return new Response(JSON.stringify({ success: true, data: { items: [] } }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('Request', class extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    }
  });
  return urls;
}

const withoutT = (url: string) => {
  const u = new URL(url, 'http://localhost');
  u.searchParams.delete('_t');
  return `${u.pathname}${u.search}`;
};

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("the entry's early calls are the ones the first screen makes", () => {
  it('builds each URL as its endpoint does', async () => {
    const urls = recordRequests();
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user }));
    await store.dispatch(authApi.endpoints.me.initiate());
    await store.dispatch(notificationsApi.endpoints.unreadCount.initiate());
    await store.dispatch(reviewsApi.endpoints.feed.initiate({ page: 1, limit: 10 })); // HomePage
    await store.dispatch(productsApi.endpoints.products.initiate({ search: '', category: 'All', limit: 100 })); // ProductsPage
    await store.dispatch(productsApi.endpoints.product.initiate('şık-lamba')); // ProductDetailPage
    await store.dispatch(profileApi.endpoints.profile.initiate('mert.k')); // UserProfilePage
    const asked = urls.map(withoutT);
    const early = [
      ...firstCalls('/home', ''),
      ...firstCalls('/products', ''),
      ...firstCalls(`/product/${encodeURIComponent('şık-lamba')}`, ''),
      ...firstCalls('/user/mert.k', ''),
    ].map(withoutT);
    expect(new Set(early)).toEqual(new Set(asked));
  });

  it('asks nothing page-specific for a filtered product list or an unknown page', () => {
    expect(firstCalls('/products', '?category=Tech')).toEqual(firstCalls('/settings', ''));
    expect(firstCalls('/settings', '')).toEqual(['/api/auth/me', '/api/notifications/unread-count']);
  });

  it('hands a reply over once, and only for the same token', async () => {
    recordRequests();
    askEarly('/api/feed?page=1&limit=10', 'token-1');
    expect(takeEarly('http://localhost:3000/api/feed?page=1&limit=10', 'token-2')).toBeUndefined();
    askEarly('/api/feed?page=1&limit=10', 'token-1');
    const reply = takeEarly(new URL('/api/feed?page=1&limit=10', window.location.origin).href, 'token-1');
    expect(reply).toBeDefined();
    expect((await reply)?.status).toBe(200);
    expect(takeEarly(new URL('/api/feed?page=1&limit=10', window.location.origin).href, 'token-1')).toBeUndefined();
  });
});
