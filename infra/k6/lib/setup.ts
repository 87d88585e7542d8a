// Shared by every scenario: the target, a small API client and the seeded-user setup.
// Run against a stack started with RATE_LIMITS=off (registration and writes are rate limited otherwise).
import { check, fail } from 'k6';
import http, { RefinedResponse, ResponseType } from 'k6/http';
import { Options } from 'k6/options';

export const BASE_URL = (__ENV.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
export const WS_URL = BASE_URL.replace(/^http/, 'ws');
// Not a common or guessable password: the auth service refuses those at registration.
const PASSWORD = 'load-test-lamp-battery-42';

export interface SeedUser {
  id: string;
  username: string;
  token: string;
}

export interface SeedData {
  users: SeedUser[];
  /** Product ids and their search words. */
  products: { id: string; slug: string; name: string }[];
  reviewIds: string[];
  /** One conversation per pair of neighbouring users: [conversationId, memberA, memberB]. */
  conversations: { id: string; members: [number, number] }[];
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export function headers(token?: string): Record<string, string> {
  const h: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

/** One API call; `name` groups URLs with ids into one metric series. */
export function api(method: Method, path: string, token?: string, body?: object, name?: string): RefinedResponse<ResponseType> {
  return http.request(method, `${BASE_URL}${path}`, body === undefined ? null : JSON.stringify(body), {
    headers: headers(token),
    tags: { name: name ?? path },
  });
}

/** `data` of the `{ success, data }` envelope. */
export function dataOf<T>(res: RefinedResponse<ResponseType>): T {
  const parsed = JSON.parse(String(res.body)) as { data: T };
  return parsed.data;
}

/** A user of the run: registered, or logged in when a previous run registered it. */
function seedUser(runId: string, i: number): SeedUser {
  const email = `k6-${runId}-${i}@load.local`;
  let res = api('POST', '/api/auth/register', undefined, { email, name: `Load Tester ${i}`, password: PASSWORD });
  if (res.status !== 201 && res.status !== 200) res = api('POST', '/api/auth/login', undefined, { email, password: PASSWORD });
  if (!check(res, { 'setup: user signed in': (r) => r.status === 200 || r.status === 201 })) {
    fail(`setup could not sign in ${email}: ${res.status} ${String(res.body)} (is RATE_LIMITS=off?)`);
  }
  const { token, user } = dataOf<{ token: string; user: { id: string; username: string } }>(res);
  return { id: user.id, username: user.username, token };
}

/**
 * setup(): SEED_USERS members (default 20), each following the next three, each with two
 * reviews, neighbours sharing a conversation. SEED_RUN names the run (reuse it to reuse users).
 */
export function seed(): SeedData {
  const count = Number(__ENV.SEED_USERS ?? 20);
  const runId = __ENV.SEED_RUN ?? String(Date.now());
  const users = Array.from({ length: count }, (_, i) => seedUser(runId, i));
  users.forEach((u, i) => {
    for (let k = 1; k <= Math.min(3, count - 1); k++) api('POST', `/api/follows/users/${users[(i + k) % count].id}`, u.token, {}, 'follow');
  });
  const products = dataOf<{ id: string; slug: string; name: string }[]>(api('GET', '/api/products?page=1&limit=20', users[0].token));
  const reviewIds: string[] = [];
  users.forEach((u, i) => {
    for (let k = 0; k < 2; k++) {
      const product = products.length > 0 ? products[(i + k) % products.length] : undefined;
      const body = product
        ? { product_id: product.id, rating: 1 + ((i + k) % 5), title: `Load test ${i}.${k}`, content: `Seeded by k6 run ${runId}.` }
        : { content: `Seeded by k6 run ${runId}.` };
      const res = api('POST', '/api/reviews', u.token, body, 'create review');
      if (res.status === 201 || res.status === 200) reviewIds.push(dataOf<{ id: string }>(res).id);
    }
  });
  const conversations: SeedData['conversations'] = [];
  for (let i = 0; i + 1 < count; i += 2) {
    const res = api('POST', '/api/messages/conversations', users[i].token, { memberIds: [users[i + 1].id] }, 'create conversation');
    if (res.status === 201 || res.status === 200) conversations.push({ id: dataOf<{ id: string }>(res).id, members: [i, i + 1] });
  }
  return { users, products, reviewIds, conversations };
}

/** This VU's member: VUs take the seeded users round robin. */
export function userOf(data: SeedData): SeedUser {
  return data.users[(__VU - 1) % data.users.length];
}

export function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** Error rate and p95 every scenario must hold; scenarios add their own. */
export const BASE_THRESHOLDS: NonNullable<Options['thresholds']> = {
  http_req_failed: ['rate<0.01'],
  http_req_duration: ['p(95)<300'],
  checks: ['rate>0.99'],
};
