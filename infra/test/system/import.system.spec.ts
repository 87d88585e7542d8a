import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * The bulk import (docs/decisions/import.md) against the public API: the same members, follows,
 * products and reviews go into one stack through the API and into another through the
 * services' imports, and every service ends in the same state (profiles and their counters,
 * feeds, notifications and unread counts, product ratings), and refuses the same rows with the
 * same replies.
 */
const PASSWORD = 'lamp-desk-battery-42';
const MEMBERS = Array.from({ length: 10 }, (_, i) => ({ email: `m${i}@import.test`, name: `Member ${'ABCDEFGHIJ'[i]} Import` }));
const PRIVATE = 9;
/** Each member follows the next and the third next; then a self-follow and a repeat, both refused. */
const FOLLOWS: [number, number][] = [...MEMBERS.flatMap((_, i): [number, number][] => [[i, (i + 1) % 10], [i, (i + 3) % 10]]), [0, 0], [0, 1]];
const PRODUCTS = [0, 1, 2].map((i) => ({ owner: i, name: `Import Kettle ${i}`, category: 'Kitchen', price: 10 + i, description: `Kettle number ${i}` }));
/** Thirty reviews, nine naming a product; the last repeats member 0's review of product 0 (refused). */
const REVIEWS = [
  ...Array.from({ length: 30 }, (_, j) => ({
    author: j % 10,
    product: j < 9 ? j % 3 : undefined,
    rating: j < 9 ? 1 + (j % 5) : undefined,
    content: `Review ${j} of the import test #tag${j % 2}`,
  })),
  { author: 0, product: 0, rating: 5, content: 'Member 0 again on product 0' },
];

interface Member {
  id: string;
  username: string;
  email: string;
  auth: string;
}

interface World {
  stack: EmbeddedStack;
  members: Member[];
  productIds: string[];
  reviewIds: (string | null)[];
  /** [status, message] of each follow and review row refused. */
  refused: { follows: [number, number, string][]; reviews: [number, number, string][] };
}

const api = (stack: EmbeddedStack) => request(stack.url);

async function start(): Promise<EmbeddedStack> {
  return startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', BCRYPT_ROUNDS: '4' } });
}

async function login(stack: EmbeddedStack, email: string): Promise<Member> {
  const res = await api(stack).post('/api/auth/login').send({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { id: res.body.data.user.id, username: res.body.data.user.username, email, auth: `Bearer ${res.body.data.token}` };
}

/** The private member's setting, through the API in both worlds (it is not part of the import). */
async function makePrivate(stack: EmbeddedStack, member: Member): Promise<void> {
  expect((await api(stack).put('/api/users/settings').set('Authorization', member.auth).send({ privacy_profile: 'private' })).status).toBe(200);
  await stack.settle();
}

async function throughApi(): Promise<World> {
  const stack = await start();
  const members: Member[] = [];
  for (const m of MEMBERS) {
    const res = await api(stack).post('/api/auth/register').send({ ...m, password: PASSWORD });
    expect(res.status).toBe(201);
    members.push({ id: res.body.data.user.id, username: res.body.data.user.username, email: m.email, auth: `Bearer ${res.body.data.token}` });
  }
  await stack.settle();
  await makePrivate(stack, members[PRIVATE]);
  const refused: World['refused'] = { follows: [], reviews: [] };
  for (const [n, [from, to]] of FOLLOWS.entries()) {
    const res = await api(stack).post(`/api/follows/users/${members[to].id}`).set('Authorization', members[from].auth);
    if (res.status >= 300) refused.follows.push([n, res.status, res.body.message]);
  }
  const productIds: string[] = [];
  for (const { owner, ...p } of PRODUCTS) {
    const res = await api(stack).post('/api/products').set('Authorization', members[owner].auth).send(p);
    expect(res.status).toBe(201);
    productIds.push(res.body.data.id);
  }
  await stack.settle();
  const reviewIds: (string | null)[] = [];
  for (const [n, r] of REVIEWS.entries()) {
    const body = { content: r.content, ...(r.product !== undefined && { product_id: productIds[r.product], rating: r.rating }) };
    const res = await api(stack).post('/api/reviews').set('Authorization', members[r.author].auth).send(body);
    if (res.status >= 300) refused.reviews.push([n, res.status, res.body.message]);
    reviewIds.push(res.status < 300 ? res.body.data.id : null);
  }
  await stack.settle();
  return { stack, members, productIds, reviewIds, refused };
}

async function throughImport(): Promise<World> {
  const stack = await start();
  const { importer } = stack;
  const imported = await importer.members(MEMBERS.map((m) => ({ ...m, password: PASSWORD })));
  expect(imported.rejected).toEqual([]);
  await stack.settle();
  const members: Member[] = [];
  for (const m of MEMBERS) members.push(await login(stack, m.email));
  await makePrivate(stack, members[PRIVATE]);
  const follows = await importer.follows(FOLLOWS.map(([from, to]) => ({ follower_id: members[from].id, followee_id: members[to].id })));
  const products = await importer.products(PRODUCTS.map(({ owner, ...p }) => ({ ...p, user_id: members[owner].id })));
  expect(products.rejected).toEqual([]);
  const productIds = products.imported.map((p) => p?.id ?? '');
  await stack.settle();
  const reviews = await importer.reviews(
    REVIEWS.map((r) => ({ user_id: members[r.author].id, content: r.content, ...(r.product !== undefined && { product_id: productIds[r.product], rating: r.rating }) })),
  );
  await stack.settle();
  return {
    stack,
    members,
    productIds,
    reviewIds: reviews.imported.map((r) => r?.id ?? null),
    refused: {
      follows: follows.rejected.map((r) => [r.index, r.status, r.message]),
      reviews: reviews.rejected.map((r) => [r.index, r.status, r.message]),
    },
  };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ID = /^[0-9a-f]{24}$/;

/** The reply with each world's ids named for what they are and times blanked, arrays of peers sorted. */
function normalise(world: World, value: unknown): unknown {
  const names = new Map<string, string>([
    ...world.members.map((m, i): [string, string] => [m.id, `member ${i}`]),
    ...world.productIds.map((id, i): [string, string] => [id, `product ${i}`]),
    ...world.reviewIds.flatMap((id, i): [string, string][] => (id ? [[id, `review ${i}`]] : [])),
  ]);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return names.get(v) ?? (ID.test(v) ? '<id>' : ISO_TIME.test(v) ? '<time>' : v);
    if (Array.isArray(v)) return v.map(walk).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

async function snapshot(world: World) {
  const get = async (member: Member, path: string) => {
    const res = await api(world.stack).get(path).set('Authorization', member.auth);
    expect(res.status).toBe(200);
    return normalise(world, { data: res.body.data, meta: res.body.meta });
  };
  const [viewer] = world.members;
  return {
    refused: world.refused,
    profiles: await Promise.all(world.members.map((m) => get(viewer, `/api/users/profile/${m.username}`))),
    feeds: await Promise.all(world.members.map((m) => get(m, '/api/feed?page=1&limit=50'))),
    firstFeedPage: await get(world.members[4], '/api/feed?page=1&limit=5'),
    notifications: await Promise.all(world.members.map((m) => get(m, '/api/notifications?page=1&limit=50'))),
    unread: await Promise.all(world.members.map((m) => get(m, '/api/notifications/unread-count'))),
    products: await get(viewer, '/api/products?page=1&limit=50'),
    requests: await get(world.members[PRIVATE], '/api/follows/requests?direction=incoming'),
  };
}

describe('bulk import against the public API (embedded stack)', () => {
  // One world at a time: the in-process bus is shared by every stack of a process.
  let viaApi: { refused: World['refused']; state: Awaited<ReturnType<typeof snapshot>> };
  let viaImport: typeof viaApi;

  const build = async (make: () => Promise<World>) => {
    const world = await make();
    try {
      return { refused: world.refused, state: await snapshot(world) };
    } finally {
      await world.stack.close();
    }
  };

  beforeAll(async () => {
    viaApi = await build(throughApi);
    viaImport = await build(throughImport);
  }, 60_000);

  it('refuses the rows the API refuses, with the same status and message', () => {
    expect(viaImport.refused).toEqual(viaApi.refused);
    expect(viaApi.refused.follows.map(([n, status]) => [n, status])).toEqual([
      [FOLLOWS.length - 2, 400],
      [FOLLOWS.length - 1, 409],
    ]);
    expect(viaApi.refused.reviews.map(([n, status]) => [n, status])).toEqual([[REVIEWS.length - 1, 409]]);
  });

  it('leaves every service in the same state: profiles, feeds, notifications, unread counts, products, requests', () => {
    const [a, b] = [viaApi.state, viaImport.state];
    // What is compared is not empty: counters moved, feeds and bells filled, ratings aggregated.
    const profile = a.profiles[1] as { data: { followers_count: number } };
    expect(profile.data.followers_count).toBe(2);
    expect((a.firstFeedPage as { data: unknown[] }).data).toHaveLength(5);
    expect((a.notifications[1] as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect((a.requests as { data: unknown[] }).data).toHaveLength(2);
    expect(b).toEqual(a);
  });
});
