import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { declaredRoutes, inParallel, isErrorEnvelope, normalise, probe, ProbeReply } from './http-probe';

/**
 * Issue 11 §4: every route of every service, fed malformed bodies, wrong types, huge strings,
 * unknown fields, NoSQL operators, bad ids and bad paging. Every reply must be an envelope,
 * never a 5xx, never a hang, and the data made in beforeAll must be unchanged afterwards.
 */

type Who = 'A' | 'B' | 'none';
/** How a body field is typed, which decides what a wrong value for it is. */
type FieldKind = 'str' | 'int' | 'rating' | 'num' | 'bool' | 'enum' | 'strArr' | 'mediaArr' | 'idArr' | 'url' | 'iso' | 'username' | 'email' | 'media' | 'attachments';

interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** `:name` segments are filled from the sample ids. */
  path: string;
  as: Who;
  /** A valid body (for DTO routes); wrong values replace one field at a time. */
  body?: Record<string, unknown>;
  fields?: Record<string, FieldKind>;
  /** Fields where null means something (clear the picture, no product): every other field refuses null. */
  nullable?: string[];
  /** The route validates a page query (PageQueryDto or a subclass): bad paging must be refused. */
  paged?: boolean;
}

/** Built from `grep -rn "@Get\|@Post\|@Put\|@Delete\|@Controller" services/*\/src`. */
const ROUTES: RouteSpec[] = [
  // auth
  { method: 'POST', path: '/api/auth/register', as: 'none', body: { email: 'new@example.com', name: 'New One', password: 'lamp-desk-battery-42' }, fields: { email: 'email', name: 'str', password: 'str', language: 'enum' }, nullable: ['language'] },
  { method: 'POST', path: '/api/auth/login', as: 'none', body: { email: 'ayse@example.com', password: 'lamp-desk-battery-42' }, fields: { email: 'str', password: 'str' } },
  { method: 'GET', path: '/api/auth/me', as: 'A' },
  { method: 'GET', path: '/api/auth/users', as: 'A', paged: true },
  { method: 'GET', path: '/api/auth/session', as: 'A' },
  // Every probe of these two is refused before the handler runs (a success would end A's session and show in the snapshot).
  { method: 'POST', path: '/api/auth/logout', as: 'A' },
  { method: 'PUT', path: '/api/auth/password', as: 'A', body: { current_password: 'not-the-password', new_password: 'quiet-harbour-lantern-7' }, fields: { current_password: 'str', new_password: 'str' } },
  { method: 'POST', path: '/api/auth/password-reset', as: 'none', body: { email: 'nobody@example.com' }, fields: { email: 'email', language: 'enum' }, nullable: ['language'] },
  { method: 'POST', path: '/api/auth/password-reset/confirm', as: 'none', body: { token: 'not-a-reset-token', new_password: 'quiet-harbour-lantern-7' }, fields: { token: 'str', new_password: 'str' } },
  { method: 'GET', path: '/api/auth/2fa', as: 'A' },
  // The services' bulk imports (IMPORT_TOKEN, on a service's own port): through the gateway there is no such route.
  { method: 'POST', path: '/api/internal/import/members', as: 'none', body: { rows: [] } },
  { method: 'POST', path: '/api/internal/import/follows', as: 'none', body: { rows: [] } },
  { method: 'POST', path: '/api/internal/import/products', as: 'none', body: { rows: [] } },
  { method: 'POST', path: '/api/internal/import/reviews', as: 'none', body: { rows: [] } },
  { method: 'GET', path: '/api/auth/me/export', as: 'A' },
  { method: 'GET', path: '/api/follows/me/export', as: 'A' },
  { method: 'GET', path: '/api/reviews/me/export', as: 'A' },
  { method: 'GET', path: '/api/squads/me/export', as: 'A' },
  { method: 'GET', path: '/api/messages/me/export', as: 'A' },
  { method: 'GET', path: '/api/notifications/me/export', as: 'A' },
  { method: 'POST', path: '/api/auth/2fa/setup', as: 'A' },
  { method: 'POST', path: '/api/auth/2fa/enable', as: 'A', body: { code: '000000' }, fields: { code: 'str' } },
  { method: 'POST', path: '/api/auth/2fa/verify', as: 'none', body: { challenge: 'not-a-challenge', code: '000000' }, fields: { challenge: 'str', code: 'str' } },
  { method: 'POST', path: '/api/auth/2fa/disable', as: 'A', body: { password: 'not-the-password' }, fields: { password: 'str' } },
  // social: follows
  { method: 'POST', path: '/api/follows/users/:userB', as: 'A' },
  { method: 'DELETE', path: '/api/follows/users/:userB', as: 'A' },
  { method: 'GET', path: '/api/follows/status/:userB', as: 'A' },
  { method: 'GET', path: '/api/follows/followers', as: 'A', paged: true },
  { method: 'GET', path: '/api/follows/followers/:userB', as: 'A', paged: true },
  { method: 'DELETE', path: '/api/follows/followers/:userB', as: 'A' },
  { method: 'GET', path: '/api/follows/following', as: 'A', paged: true },
  { method: 'GET', path: '/api/follows/following/:userB', as: 'A', paged: true },
  { method: 'GET', path: '/api/follows/requests', as: 'A', paged: true },
  { method: 'POST', path: '/api/follows/requests/:userB/accept', as: 'A' },
  { method: 'POST', path: '/api/follows/requests/:userB/reject', as: 'A' },
  // social: stats, discovery, profiles, settings, blocks, mutes
  { method: 'GET', path: '/api/users/stats', as: 'A' },
  { method: 'GET', path: '/api/users/search', as: 'A', paged: true },
  { method: 'GET', path: '/api/users/suggestions', as: 'A' },
  { method: 'GET', path: '/api/users/profile/:usernameB', as: 'A' },
  { method: 'PUT', path: '/api/users/profile', as: 'A', body: { bio: 'hello' }, fields: { display_name: 'str', username: 'username', bio: 'str', profile_image_url: 'url' }, nullable: ['profile_image_url'] },
  { method: 'GET', path: '/api/users/settings', as: 'A' },
  { method: 'PUT', path: '/api/users/settings', as: 'A', body: { theme: 'dark' }, fields: { notification_email: 'bool', notification_push: 'bool', privacy_profile: 'enum', theme: 'enum' } },
  { method: 'POST', path: '/api/users/:userB/block', as: 'A' },
  { method: 'DELETE', path: '/api/users/:userB/block', as: 'A' },
  { method: 'GET', path: '/api/users/blocked', as: 'A', paged: true },
  { method: 'POST', path: '/api/users/:userB/mute', as: 'A' },
  { method: 'DELETE', path: '/api/users/:userB/mute', as: 'A' },
  { method: 'GET', path: '/api/users/mutes', as: 'A', paged: true },
  // reviews service
  { method: 'GET', path: '/api/trending', as: 'A' },
  { method: 'GET', path: '/api/reviews', as: 'A', paged: true },
  { method: 'GET', path: '/api/reviews/:review', as: 'A' },
  // link cards: public reads with no token (issue 30 §4)
  { method: 'GET', path: '/api/cards/catalogue', as: 'none' },
  { method: 'GET', path: '/api/cards/products/:product', as: 'none' },
  { method: 'GET', path: '/api/cards/reviews/:review', as: 'none' },
  { method: 'GET', path: '/api/cards/users/:usernameB', as: 'none' },
  { method: 'GET', path: '/api/reviews/:review/history', as: 'A', paged: true },
  { method: 'POST', path: '/api/reviews', as: 'B', body: { product_id: ':product', rating: 4, title: 'T', content: 'Fine', images: ['/api/media/lamp'], image_alts: ['A lamp'] }, fields: { product_id: 'str', rating: 'rating', has_spoilers: 'bool', title: 'str', content: 'str', images: 'mediaArr', image_alts: 'strArr', location: 'str', date: 'iso' }, nullable: ['product_id', 'location', 'date'] },
  { method: 'PUT', path: '/api/reviews/:review', as: 'A', body: { title: 'Edited', images: ['/api/media/lamp'], image_alts: ['A lamp'] }, fields: { rating: 'rating', has_spoilers: 'bool', title: 'str', content: 'str', images: 'mediaArr', image_alts: 'strArr', location: 'str', date: 'iso' }, nullable: ['location', 'date'] },
  { method: 'DELETE', path: '/api/reviews/:review', as: 'A' },
  { method: 'POST', path: '/api/reviews/:review/report', as: 'B', body: { reason: 'spam' }, fields: { reason: 'str' }, nullable: ['reason'] },
  { method: 'POST', path: '/api/media', as: 'A' },
  { method: 'GET', path: '/api/media/:media', as: 'none' },
  { method: 'POST', path: '/api/likes/reviews/:review', as: 'A' },
  { method: 'GET', path: '/api/likes/reviews/:review/status', as: 'A' },
  { method: 'GET', path: '/api/likes/reviews/:review/users', as: 'A', paged: true },
  { method: 'POST', path: '/api/likes/products/:product', as: 'A' },
  { method: 'GET', path: '/api/likes/products/:product/status', as: 'A' },
  { method: 'GET', path: '/api/activities/feed', as: 'A', paged: true },
  { method: 'GET', path: '/api/activities/user', as: 'A', paged: true },
  { method: 'GET', path: '/api/products', as: 'A', paged: true },
  { method: 'GET', path: '/api/products/:product', as: 'A' },
  { method: 'POST', path: '/api/products', as: 'A', body: { name: 'Thing', category: 'Home', price: 10 }, fields: { name: 'str', brand: 'str', description: 'str', price: 'num', category: 'enum', features: 'strArr', image: 'media', image_alt: 'str' }, nullable: ['image', 'image_alt'] },
  { method: 'PUT', path: '/api/products/:product', as: 'A', body: { brand: 'Acme' }, fields: { name: 'str', brand: 'str', description: 'str', price: 'num', category: 'enum', features: 'strArr', image: 'media', image_alt: 'str' }, nullable: ['image', 'image_alt'] },
  { method: 'DELETE', path: '/api/products/:product', as: 'A' },
  { method: 'GET', path: '/api/reviews/:review/comments', as: 'A', paged: true },
  { method: 'POST', path: '/api/reviews/:review/comments', as: 'A', body: { content: 'Nice' }, fields: { content: 'str' } },
  { method: 'PUT', path: '/api/comments/:comment', as: 'B', body: { content: 'Edited' }, fields: { content: 'str' } },
  { method: 'DELETE', path: '/api/comments/:comment', as: 'B' },
  { method: 'GET', path: '/api/feed', as: 'A', paged: true },
  { method: 'GET', path: '/api/saved', as: 'A', paged: true },
  { method: 'POST', path: '/api/saved/products/:product', as: 'B' },
  { method: 'DELETE', path: '/api/saved/products/:product', as: 'A' },
  { method: 'POST', path: '/api/saved/reviews/:review', as: 'B' },
  { method: 'DELETE', path: '/api/saved/reviews/:review', as: 'A' },
  { method: 'GET', path: '/api/lists', as: 'A', paged: true },
  { method: 'POST', path: '/api/lists', as: 'A', body: { name: 'Picks', visibility: 'public' }, fields: { name: 'str', description: 'str', visibility: 'enum' } },
  { method: 'GET', path: '/api/lists/:list', as: 'B', paged: true },
  { method: 'PUT', path: '/api/lists/:list', as: 'A', body: { description: 'Edited' }, fields: { name: 'str', description: 'str', visibility: 'enum' } },
  { method: 'DELETE', path: '/api/lists/:list', as: 'A' },
  { method: 'POST', path: '/api/lists/:list/items', as: 'A', body: { product_id: ':product', note: 'n' }, fields: { product_id: 'str', note: 'str' } },
  { method: 'DELETE', path: '/api/lists/:list/items/:product', as: 'A' },
  // squads
  { method: 'GET', path: '/api/squads/my-squads', as: 'A', paged: true },
  { method: 'GET', path: '/api/squads/discover', as: 'A', paged: true },
  { method: 'GET', path: '/api/squads/stats', as: 'A' },
  { method: 'POST', path: '/api/squads', as: 'A', body: { name: 'Another', category: 'Books' }, fields: { name: 'str', description: 'str', category: 'enum' } },
  { method: 'GET', path: '/api/squads/:squad', as: 'A' },
  { method: 'PUT', path: '/api/squads/:squad', as: 'A', body: { description: 'New words' }, fields: { name: 'str', description: 'str', category: 'enum' } },
  { method: 'DELETE', path: '/api/squads/:squad', as: 'A' },
  { method: 'POST', path: '/api/squads/:squad/request-join', as: 'B', body: { message: 'hi' }, fields: { message: 'str' } },
  { method: 'GET', path: '/api/squads/:squad/join-requests', as: 'A', paged: true },
  { method: 'POST', path: '/api/squads/:squad/join-requests/:joinRequest', as: 'A', body: { action: 'approve' }, fields: { action: 'enum' } },
  { method: 'POST', path: '/api/squads/:squad/leave', as: 'A' },
  { method: 'PUT', path: '/api/squads/:squad/members/:userB', as: 'A', body: { role: 'moderator' }, fields: { role: 'enum' } },
  { method: 'DELETE', path: '/api/squads/:squad/members/:userB', as: 'A' },
  // messaging
  { method: 'GET', path: '/api/messages/squads/:squad/conversation', as: 'A' },
  { method: 'GET', path: '/api/messages/conversations', as: 'A', paged: true },
  { method: 'POST', path: '/api/messages/conversations', as: 'A', body: { memberIds: [':userB'] }, fields: { memberIds: 'idArr' } },
  { method: 'GET', path: '/api/messages/conversations/:conversation/members', as: 'A' },
  { method: 'POST', path: '/api/messages/conversations/:conversation/read', as: 'A' },
  { method: 'GET', path: '/api/messages/conversations/:conversation/messages', as: 'A', paged: true },
  { method: 'POST', path: '/api/messages/conversations/:conversation/messages', as: 'A', body: { content: 'hey' }, fields: { content: 'str', attachments: 'attachments' }, nullable: ['attachments'] },
  { method: 'PUT', path: '/api/messages/:message', as: 'A', body: { content: 'edited' }, fields: { content: 'str' } },
  { method: 'DELETE', path: '/api/messages/:message', as: 'A' },
  { method: 'POST', path: '/api/messages/:message/reactions', as: 'A', body: { emoji: '👍' }, fields: { emoji: 'str' } },
  { method: 'DELETE', path: '/api/messages/:message/reactions', as: 'A', body: { emoji: '👍' }, fields: { emoji: 'str' } },
  // notifications
  { method: 'GET', path: '/api/notifications', as: 'A', paged: true },
  { method: 'GET', path: '/api/notifications/unread-count', as: 'A' },
  { method: 'PUT', path: '/api/notifications/mark-all-read', as: 'A' },
  { method: 'PUT', path: '/api/notifications/:notification/read', as: 'A' },
  { method: 'DELETE', path: '/api/notifications/:notification', as: 'A' },
  // keyword filters and moderation (issue 22 §2, §3); A, the first account, is the admin
  { method: 'GET', path: '/api/filters', as: 'A' },
  { method: 'POST', path: '/api/filters', as: 'A', body: { phrase: 'lamp', whole_word: true, expires_at: '2099-01-01T00:00:00Z' }, fields: { phrase: 'str', whole_word: 'bool', expires_at: 'iso' }, nullable: ['expires_at'] },
  { method: 'GET', path: '/api/filters/:filter', as: 'A' },
  { method: 'DELETE', path: '/api/filters/:filter', as: 'A' },
  { method: 'GET', path: '/api/moderation/reports', as: 'A', paged: true },
  { method: 'GET', path: '/api/moderation/log', as: 'A', paged: true },
  { method: 'GET', path: '/api/moderation/staff', as: 'A' },
  { method: 'POST', path: '/api/moderation/reports/:report/dismiss', as: 'A', body: { reason: 'fine' }, fields: { reason: 'str' } },
  { method: 'POST', path: '/api/moderation/reviews/:review/hide', as: 'A', body: { reason: 'spam' }, fields: { reason: 'str' } },
  { method: 'POST', path: '/api/moderation/reviews/:review/unhide', as: 'A', body: { reason: 'fine' }, fields: { reason: 'str' } },
  { method: 'POST', path: '/api/moderation/suspensions/:report', as: 'A', body: { hours: 24, reason: 'spam' }, fields: { reason: 'str' } },
  { method: 'PUT', path: '/api/moderation/roles/:userB', as: 'A', body: { role: 'moderator', reason: 'helps' }, fields: { role: 'enum', reason: 'str' } },
  // reviews service: hashtags (issue 21 §6); alt text (§7) is walked as image_alts / image_alt on the review and product rows above
  { method: 'GET', path: '/api/trending/tags', as: 'A' },
  { method: 'GET', path: '/api/tags/:tag', as: 'A' },
  { method: 'GET', path: '/api/tags/:tag/reviews', as: 'A', paged: true },
  { method: 'POST', path: '/api/tags/:tag/follow', as: 'A' },
  { method: 'DELETE', path: '/api/tags/:tag/follow', as: 'A' },
  // one search (issue 21 §5): the reviews part; without a valid q every probe is refused (the gateway's
  // GET /api/search declares no controller route: search.system.spec.ts feeds it bad q)
  { method: 'GET', path: '/api/reviews/search', as: 'A', paged: true },
  // account deletion (routed to auth): every probe carries a wrong password, so none deletes A
  { method: 'DELETE', path: '/api/users/me', as: 'A', body: { password: 'not-the-password' }, fields: { password: 'str' } },
  // comment reports and comment moderation (issue 22 §3): A reports and hides B's comment, then shows it again
  { method: 'POST', path: '/api/comments/:comment/report', as: 'A', body: { reason: 'spam' }, fields: { reason: 'str' }, nullable: ['reason'] },
  { method: 'POST', path: '/api/moderation/comments/:comment/hide', as: 'A', body: { reason: 'spam' }, fields: { reason: 'str' } },
  { method: 'POST', path: '/api/moderation/comments/:comment/unhide', as: 'A', body: { reason: 'fine' }, fields: { reason: 'str' } },
];

const HUGE = 'x'.repeat(100_000);
const NE = { $ne: null };
const GT = { $gt: '' };

/** Values a field of each kind must refuse; null is tried apart, on every field not listed as nullable. */
const WRONG: Record<FieldKind, unknown[]> = {
  str: [12345, true, [], {}, NE, GT, HUGE, ['a']],
  int: ['5', 1.5, true, {}, { $gt: 0 }, [], 1e308, -1, 0, 6],
  // Half stars (issue 21 §1): 1.5 is a rating, 4.3 and 5.5 are not.
  rating: ['5', 4.3, 0.25, true, {}, { $gt: 0 }, [], 1e308, -1, 0, 5.5, 6],
  num: ['12', true, {}, { $gt: 0 }, [], -1, 1e308, 1.234],
  bool: ['yes', 'true', 1, {}, NE, []],
  enum: ['nope', 1, {}, NE, GT, [], HUGE],
  strArr: ['str', [1], [{}], [NE], NE, Array.from({ length: 1000 }, (_, i) => `f${i}`), [HUGE]],
  mediaArr: ['str', [1], [NE], NE, ['javascript:alert(1)'], [`https://example.com/${HUGE}`], Array.from({ length: 100 }, () => '/api/media/x')],
  idArr: ['str', [1], [NE], NE, [], [HUGE], Array.from({ length: 100 }, (_, i) => `id${i}`), [{ $gt: '' }]],
  url: [123, 'javascript:alert(1)', 'not a url', NE, `https://example.com/${HUGE}`],
  iso: ['not-a-date', 123, GT, HUGE],
  username: ['a', 'Has Space!', 123, NE, HUGE, '../../etc'],
  email: ['not-an-email', 123, NE, GT, HUGE],
  media: [123, 'javascript:alert(1)', NE, `https://example.com/${HUGE}`, '/api/media/../../etc/passwd'],
  // Chat images (issue 22 §4): this product's uploads only, at most 4, alt text bounded.
  attachments: [
    'str',
    [1],
    ['/api/media/x'],
    [{ url: 'https://example.com/x.png' }],
    [{ url: '/api/media/../../etc/passwd' }],
    [{ url: NE }],
    [{ url: '/api/media/x', alt: HUGE }],
    Array.from({ length: 5 }, () => ({ url: '/api/media/x' })),
    NE,
  ],
};

/** Issue 17 §3: nesting that overflowed the validation pipe's stack (a 500); refused with a 400 beyond 32 levels. */
const DEEP_BODIES: [string, string][] = [
  ['10 KB of nested arrays', '['.repeat(5000) + ']'.repeat(5000)],
  ['120 KB of nested objects', '{"a":'.repeat(24_000) + '1' + '}'.repeat(24_000)],
  ['33 levels', '['.repeat(33) + ']'.repeat(33)],
];

const MALFORMED_BODIES = ['{"a":', '{"content": "x",}', "{'a':1}", 'null', '"str"', '\u0000'];

const BAD_IDS = [
  '..%2F..%2Fetc%2Fpasswd',
  '../../etc/passwd',
  '%00',
  'a'.repeat(5000),
  encodeURIComponent('{"$ne":1}'),
  encodeURIComponent('{"$gt":""}'),
  '%E0%A4%A',
  '__proto__',
  'constructor',
  '%20',
];

const BAD_PAGING = [
  'page=-1',
  'page=0',
  'page=1e12',
  'page=99999999999999999999',
  'page=abc',
  'page=1.5',
  'limit=-1',
  'limit=0',
  'limit=1000000',
  'limit=abc',
  'limit=1&limit=2',
  'page[$gt]=0',
  'limit[$ne]=1',
];
/** Operators and prototype keys in the query: flat parsing keeps them plain (unknown) keys. */
const BAD_QUERY = ['userId[$ne]=x', 'productId[$gt]=', 'search[$regex]=.*', '$where=1', '__proto__[x]=1', 'constructor[prototype][x]=1', `search=${'s'.repeat(5000)}`];

interface Probe {
  route: RouteSpec;
  label: string;
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  contentType?: string;
  /**
   * 'reject': must be a 4xx envelope. 'safe': a 2xx or a 4xx envelope. 'deep': the 400 for nesting (or an earlier
   * 401/404). 'unsupported': a body in a type the route does not read, the 415 envelope (issue 45 §8).
   */
  expect: 'reject' | 'safe' | 'deep' | 'unsupported';
}

interface Finding {
  label: string;
  status: number;
  detail: string;
}

describe('bad input on every route (embedded stack)', () => {
  let stack: EmbeddedStack;
  const tokens: Record<Who, string | undefined> = { A: undefined, B: undefined, none: undefined };
  const ids: Record<string, string> = {};
  let walked = 0;
  let tried = 0;
  const findings: Finding[] = [];

  async function call(method: string, path: string, who: Who, body?: unknown): Promise<ProbeReply> {
    return probe(stack.url, { method, path, token: tokens[who], body });
  }

  async function ok(method: string, path: string, who: Who, body?: unknown): Promise<{ data: unknown; meta?: { total: number } }> {
    const res = await call(method, path, who, body);
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`);
    return res.json as { data: unknown; meta?: { total: number } };
  }

  /** Everything the walk could damage, as the two members see it. */
  async function snapshot(): Promise<Record<string, unknown>> {
    await stack.settle();
    const total = async (path: string, who: Who) => (await ok('GET', path, who)).meta?.total;
    const data = async (path: string, who: Who) => (await ok('GET', path, who)).data;
    const pick = (o: unknown, keys: string[]) => Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k]]));
    return {
      users: await total('/api/auth/users', 'A'),
      products: await total('/api/products', 'A'),
      product: pick(await data(`/api/products/${ids.product}`, 'A'), ['name', 'brand', 'price', 'image', 'image_alt', 'features', 'review_count', 'rating']),
      reviews: await total('/api/reviews', 'A'),
      review: pick(await data(`/api/reviews/${ids.review}`, 'A'), ['title', 'content', 'rating', 'images', 'image_alts', 'like_count', 'comment_count', 'location', 'date']),
      comments: await total(`/api/reviews/${ids.review}/comments`, 'A'),
      likeB: await data(`/api/likes/reviews/${ids.review}/status`, 'B'),
      productLikeA: await data(`/api/likes/products/${ids.product}/status`, 'A'),
      squadsA: await total('/api/squads/my-squads', 'A'),
      squadsB: await total('/api/squads/my-squads', 'B'),
      discover: await total('/api/squads/discover', 'B'),
      squad: pick(await data(`/api/squads/${ids.squad}`, 'A'), ['name', 'description', 'category', 'member_count']),
      pendingRequests: await total(`/api/squads/${ids.squad}/join-requests?status=pending`, 'A'),
      conversationsA: await total('/api/messages/conversations', 'A'),
      conversationsB: await total('/api/messages/conversations', 'B'),
      messages: await total(`/api/messages/conversations/${ids.conversation}/messages`, 'A'),
      // The sample message: no probe may edit, delete or react to it.
      message: pick(((await data(`/api/messages/conversations/${ids.conversation}/messages`, 'A')) as Record<string, unknown>[])[0], ['content', 'edited_at', 'deleted', 'reactions']),
      notificationsA: await total('/api/notifications', 'A'),
      unreadA: await data('/api/notifications/unread-count', 'A'),
      followersA: await total('/api/follows/followers', 'A'),
      followingA: await total('/api/follows/following', 'A'),
      followingB: await total('/api/follows/following', 'B'),
      blockedA: await total('/api/users/blocked', 'A'),
      blockedB: await total('/api/users/blocked', 'B'),
      mutesA: await total('/api/users/mutes', 'A'),
      savedProductsA: await total('/api/saved?type=products', 'A'),
      savedReviewsA: await total('/api/saved?type=reviews', 'A'),
      savedProductsB: await total('/api/saved?type=products', 'B'),
      savedReviewsB: await total('/api/saved?type=reviews', 'B'),
      profileA: pick(await data(`/api/users/profile/${ids.usernameA}`, 'A'), ['display_name', 'username', 'bio', 'profile_image_url']),
      settingsA: await data('/api/users/settings', 'A'),
      listsA: await total('/api/lists', 'A'),
      list: pick(await data(`/api/lists/${ids.list}`, 'A'), ['name', 'description', 'visibility', 'item_count', 'items']),
    };
  }

  function fill(path: string, override?: { param: string; value: string }): string {
    return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => (override?.param === name ? override.value : ids[name]));
  }

  function fillBody(body: Record<string, unknown>): Record<string, unknown> {
    const deref = (v: unknown): unknown =>
      typeof v === 'string' && v.startsWith(':') ? ids[v.slice(1)] : Array.isArray(v) ? v.map(deref) : v;
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, deref(v)]));
  }

  function probesFor(route: RouteSpec): Probe[] {
    const token = tokens[route.as];
    const base = { route, method: route.method, token };
    const path = fill(route.path);
    const out: Probe[] = [];
    const name = `${route.method} ${route.path}`;

    // Bad ids, one path parameter at a time, with a valid body where the route takes one.
    for (const param of [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1])) {
      for (const bad of BAD_IDS) {
        out.push({ ...base, label: `${name} :${param}=${bad.slice(0, 40)}`, path: fill(route.path, { param, value: bad }), body: route.body && fillBody(route.body), expect: 'safe' });
      }
    }

    // Malformed JSON and non-object bodies: refused by the body parser before any handler runs.
    if (route.method !== 'GET') {
      for (const [label, raw] of DEEP_BODIES) {
        out.push({ ...base, label: `${name} body ${label}`, path, body: raw, contentType: 'application/json', expect: 'deep' });
      }
      for (const raw of MALFORMED_BODIES) {
        out.push({ ...base, label: `${name} body ${JSON.stringify(raw)}`, path, body: raw, expect: 'reject' });
      }
    }

    if (route.body && route.fields) {
      const valid = fillBody(route.body);
      for (const [field, kind] of Object.entries(route.fields)) {
        for (const wrong of WRONG[kind]) {
          const shown = typeof wrong === 'string' && wrong.length > 60 ? `<${wrong.length} chars>` : JSON.stringify(wrong)?.slice(0, 60);
          out.push({ ...base, label: `${name} ${field}=${shown}`, path, body: { ...valid, [field]: wrong }, expect: 'reject' });
        }
        if (!route.nullable?.includes(field)) out.push({ ...base, label: `${name} ${field}=null`, path, body: { ...valid, [field]: null }, expect: 'reject' });
      }
      const extras: [string, unknown][] = [
        ['unknown field', { ...valid, evil: 1 }],
        ['$where field', { ...valid, $where: 'sleep(1000)' }],
        ['_id field', { ...valid, _id: 'mine' }],
        ['user_id field', { ...valid, user_id: ids.userB }],
        ['array body', [valid]],
        ['operator body', { $set: valid }],
      ];
      for (const [label, body] of extras) out.push({ ...base, label: `${name} ${label}`, path, body, expect: 'reject' });
      // Prototype keys go through JSON parsing and class-transformer before validation refuses the unknown field.
      const carrier = { ...valid, evil: 1 };
      const polluting: [string, unknown][] = [
        ['__proto__ field', `{"__proto__":{"polluted":true},${JSON.stringify(carrier).slice(1)}`],
        ['constructor field', { ...carrier, constructor: { prototype: { polluted: true } } }],
      ];
      for (const [label, body] of polluting) out.push({ ...base, label: `${name} ${label}`, path, body, expect: 'reject' });
      // A body in another type than JSON is refused as such (issue 45 §8), never read as an empty or half-parsed body.
      out.push({ ...base, label: `${name} urlencoded operators`, path, body: 'content[$ne]=x&name[$gt]=', contentType: 'application/x-www-form-urlencoded', expect: 'unsupported' });
      out.push({ ...base, label: `${name} JSON sent as text/plain`, path, body: JSON.stringify(valid), contentType: 'text/plain', expect: 'unsupported' });
    }

    if (route.method === 'GET') {
      // Routes without a page query ignore the query string: a few samples show they stay calm.
      for (const q of route.paged ? BAD_PAGING : BAD_PAGING.slice(0, 3)) {
        out.push({ ...base, label: `${name} ?${q}`, path: `${path}?${q}`, expect: route.paged ? 'reject' : 'safe' });
      }
      for (const q of route.paged ? BAD_QUERY : BAD_QUERY.slice(0, 2)) {
        // Unknown keys are refused where a query DTO is declared; elsewhere they are ignored.
        out.push({ ...base, label: `${name} ?${q.slice(0, 40)}`, path: `${path}?${q}`, expect: route.paged ? 'reject' : 'safe' });
      }
    }
    return out;
  }

  function judge(p: Probe, res: ProbeReply): void {
    const fail = (detail: string): void => {
      findings.push({ label: p.label, status: res.status, detail: `${detail}: ${res.text.slice(0, 200)}` });
    };
    if (res.status >= 500) return fail('server error');
    if (/\bat .+\.(ts|js):\d+/.test(res.text)) return fail('stack trace in reply');
    if (p.expect === 'unsupported' && (res.status !== 415 || (res.json as { code?: string } | undefined)?.code !== 'UNSUPPORTED_MEDIA_TYPE')) {
      return fail('a body of another type not refused with 415');
    }
    if (res.status >= 400) {
      if (!isErrorEnvelope(res.json)) fail('4xx without an error envelope');
      else if (p.expect === 'deep' && res.status === 400 && (res.json as { message?: string }).message !== 'Request body is nested too deeply') fail('deep body refused for another reason');
      return;
    }
    if (p.expect === 'deep') return fail('accepted a body nested too deeply');
    if (p.expect === 'reject') return fail('accepted input that must be refused');
    if (res.status >= 200 && res.status < 300 && res.status !== 204) {
      const body = res.json as { success?: unknown } | undefined;
      const isMedia = p.route.path.startsWith('/api/media/');
      if (!isMedia && body?.success !== true) fail('2xx without a success envelope');
    }
  }

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    const register = async (email: string, name: string) => {
      const res = await call('POST', '/api/auth/register', 'none', { email, name, password: 'lamp-desk-battery-42' });
      expect(res.status).toBe(201);
      return res.json as { data: { token: string; user: { id: string; username: string } } };
    };
    const a = await register('ayse@example.com', 'Ayse Yilmaz');
    const b = await register('burak@example.com', 'Burak Demir');
    tokens.A = a.data.token;
    tokens.B = b.data.token;
    Object.assign(ids, { userA: a.data.user.id, userB: b.data.user.id, usernameA: a.data.user.username, usernameB: b.data.user.username });
    await stack.settle();

    ids.product = ((await ok('POST', '/api/products', 'A', { name: 'Desk Lamp', category: 'Home', price: 30, features: ['warm light'] })).data as { id: string }).id;
    ids.review = ((await ok('POST', '/api/reviews', 'A', { product_id: ids.product, rating: 4, title: 'Good lamp', content: 'Bright and warm.' })).data as { id: string }).id;
    ids.comment = ((await ok('POST', `/api/reviews/${ids.review}/comments`, 'B', { content: 'Agreed' })).data as { id: string }).id;
    await ok('POST', `/api/likes/reviews/${ids.review}`, 'B');
    await ok('POST', `/api/saved/products/${ids.product}`, 'A');
    ids.list = ((await ok('POST', '/api/lists', 'A', { name: 'Lamps', description: 'Warm ones', visibility: 'public' })).data as { id: string }).id;
    await ok('POST', `/api/lists/${ids.list}/items`, 'A', { product_id: ids.product, note: 'the best' });
    ids.squad = ((await ok('POST', '/api/squads', 'A', { name: 'Lamp Lovers', category: 'General' })).data as { id: string }).id;
    await stack.settle();
    ids.joinRequest = ((await ok('POST', `/api/squads/${ids.squad}/request-join`, 'B', { message: 'let me in' })).data as { id: string }).id;
    await ok('POST', `/api/follows/users/${ids.userA}`, 'B');
    await stack.settle();
    ids.conversation = ((await ok('POST', '/api/messages/conversations', 'A', { memberIds: [ids.userB] })).data as { id: string }).id;
    ids.message = ((await ok('POST', `/api/messages/conversations/${ids.conversation}/messages`, 'A', { content: 'hello' })).data as { id: string }).id;
    await stack.settle();
    const notes = (await ok('GET', '/api/notifications', 'A')).data as { id: string }[];
    expect(notes.length).toBeGreaterThan(0);
    ids.notification = notes[0].id;
    ids.media = 'no-such-media';
    ids.filter = ((await ok('POST', '/api/filters', 'A', { phrase: 'sample' })).data as { id: string }).id;
    ids.report = 'no-such-report';
    ids.tag = 'Kahve';
  }, 30_000);

  afterAll(async () => {
    console.log(`bad-input: ${walked} routes walked, ${tried} inputs tried, ${findings.length} findings`);
    await stack?.close();
  });

  it('the route table covers every route the controllers declare', () => {
    const table = ROUTES.map((r) => `${r.method} ${normalise(r.path)}`).sort();
    expect(table).toEqual(declaredRoutes());
  });

  it('every route answers every bad input with an envelope, never a 5xx or a hang, and no data changes', async () => {
    const before = await snapshot();
    const probes = ROUTES.flatMap(probesFor);
    walked = ROUTES.length;
    await inParallel(
      probes.map((p) => async () => {
        let res: ProbeReply;
        try {
          res = await probe(stack.url, { method: p.method, path: p.path, token: p.token, body: p.body, contentType: p.contentType, timeoutMs: 15_000 });
        } catch (err) {
          findings.push({ label: p.label, status: 0, detail: (err as Error).message });
          return;
        }
        tried++;
        judge(p, res);
      }),
      8,
    );
    const after = await snapshot();

    expect(findings).toEqual([]);
    expect(after).toEqual(before);
    // The whole stack runs in this process: a polluted prototype would show here.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(walked).toBeGreaterThanOrEqual(80);
    expect(tried).toBeGreaterThan(1200);
  }, 120_000);

  it('prototype keys in an accepted body are dropped, not merged (the setting is already "system")', async () => {
    const before = await ok('GET', '/api/users/settings', 'A');
    for (const body of ['{"__proto__":{"polluted":true},"theme":"system"}', '{"constructor":{"prototype":{"polluted":true}},"theme":"system"}']) {
      const res = await probe(stack.url, { method: 'PUT', path: '/api/users/settings', token: tokens.A, body });
      tried++;
      expect(res.status).toBe(200);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await ok('GET', '/api/users/settings', 'A')).toEqual(before);
  });

  it('a 2 MB JSON body is refused with a 413 envelope at the gateway', async () => {
    const big = JSON.stringify({ content: 'y'.repeat(2 * 1024 * 1024) });
    const declared = await probe(stack.url, { method: 'POST', path: `/api/messages/conversations/${ids.conversation}/messages`, token: tokens.A, body: big });
    expect(declared.status).toBe(413);
    expect(isErrorEnvelope(declared.json)).toBe(true);
    tried++;
  });

  it('uploads that are not images, or come under another field name, are refused', async () => {
    const boundary = 'XBOUNDARYX';
    const part = (field: string, filename: string, type: string, bytes: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${bytes}\r\n--${boundary}--\r\n`;
    const cases = [
      part('file', 'x.png', 'image/png', '<script>alert(1)</script>'),
      part('evil', 'x.png', 'image/png', 'abc'),
      part('file', '../../etc/passwd', 'image/png', 'abc'),
      `--${boundary}\r\nbroken`,
    ];
    for (const body of cases) {
      const res = await probe(stack.url, { method: 'POST', path: '/api/media', token: tokens.A, body, contentType: `multipart/form-data; boundary=${boundary}` });
      tried++;
      expect({ status: res.status, envelope: isErrorEnvelope(res.json) }).toEqual({ status: expect.any(Number), envelope: true });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // The upload reads multipart only: a JSON body is the 415 envelope, not a missing file (issue 45 §8).
    const json = await probe(stack.url, { method: 'POST', path: '/api/media', token: tokens.A, body: { file: 'x.png' } });
    tried++;
    expect([json.status, (json.json as { code?: string }).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});
