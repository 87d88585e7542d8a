/**
 * The first screen's API calls, started by the entry (main.tsx) while the app's code still downloads,
 * and handed to the API layer (api.ts) when it asks for the same URL with the same token. Each reply
 * is taken once, and only in the first seconds: after that a screen asks the server itself.
 */

/** How long an early reply waits to be taken. */
const FRESH_MS = 10_000;

interface EarlyReply {
  token: string;
  reply: Promise<Response>;
  at: number;
}

const replies = new Map<string, EarlyReply>();

/** A URL as the API layer would ask for it: absolute, without the spec's cache-busting `_t`. */
function keyOf(url: string): string {
  const u = new URL(url, window.location.origin);
  u.searchParams.delete('_t');
  return u.href;
}

/** Starts a GET of `path` (under /api) with the member's token. */
export function askEarly(path: string, token: string): void {
  const key = keyOf(path);
  if (replies.has(key)) return;
  const reply = fetch(key, { headers: { Authorization: `Bearer ${token}` }, credentials: 'same-origin' });
  reply.catch(() => undefined); // a failed early call is asked again by the screen
  replies.set(key, { token, reply, at: Date.now() });
}

/** The early reply to a GET of `url` with `token`, once; undefined when there is none (or it is stale). */
export function takeEarly(url: string, token: string | null): Promise<Response> | undefined {
  const key = keyOf(url);
  const early = replies.get(key);
  if (!early) return undefined;
  replies.delete(key);
  if (early.token !== token || Date.now() - early.at > FRESH_MS) return undefined;
  return early.reply;
}

/** fetchBaseQuery's fetch: a GET the entry already started gets that reply (or, if it failed, a new one). */
export function fetchWithEarly(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  if (input instanceof Request && input.method === 'GET' && replies.size > 0) {
    const auth = input.headers.get('authorization');
    const early = takeEarly(input.url, auth?.startsWith('Bearer ') ? auth.slice(7) : null);
    if (early) return early.catch(() => fetch(input, init));
  }
  return fetch(input, init);
}

/**
 * The API calls a signed-in member's first load of `path` makes before anything else can show: the
 * session check (app/AppTree.tsx, which also brings the account's language), the unread count (the frame's
 * bell) and the page's first list. Built as the endpoints build them (early-replies.test.ts holds them equal).
 */
export function firstCalls(path: string, search: string): string[] {
  const calls = ['/api/auth/me', '/api/notifications/unread-count'];
  const page = path.replace(/\/+$/, '') || '/';
  const param = (re: RegExp) => {
    const m = re.exec(page);
    if (!m) return undefined;
    try {
      return encodeURIComponent(decodeURIComponent(m[1]));
    } catch {
      return undefined;
    }
  };
  const product = param(/^\/product\/([^/]+)$/);
  const user = param(/^\/user\/([^/]+)$/);
  if (page === '/home') calls.push('/api/feed?page=1&limit=10');
  else if (page === '/products' && search === '') calls.push('/api/products?page=1&limit=100');
  else if (product) calls.push(`/api/products/${product}`);
  else if (user) calls.push(`/api/users/profile/${user}`);
  return calls;
}
