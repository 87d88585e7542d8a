import { sign } from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { declaredRoutes, isErrorEnvelope, keysOf, probe, ProbeReply } from './http-probe';

/**
 * Issue 11 §5: who may do what. A matrix over the resource routes as the owner, another
 * member, a blocked member and a visitor; forged and expired tokens; and a scan of every
 * GET reply for password hashes and other members' emails.
 */

type Who = 'owner' | 'other' | 'blocked' | 'visitor';

interface Member {
  id: string;
  username: string;
  email: string;
  token: string;
}

interface Case {
  who: Who;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  /** Statuses that are right for this member on this route. */
  allowed: number[];
}

const SECRET = `access-spec-${randomBytes(24).toString('hex')}`;
/** Routes a visitor may reach: login (and its second step), register, password reset and media (an <img> cannot send a token). */
const PUBLIC = new Set([
  'POST /api/auth/register',
  'POST /api/auth/login',
  'POST /api/auth/2fa/verify',
  'POST /api/auth/password-reset',
  'POST /api/auth/password-reset/confirm',
  'GET /api/media/:p',
  // a shared link's reads (issue 43 §3): public content only, each checked in its service's spec
  'GET /api/products/:p',
  'GET /api/reviews/:p',
  'GET /api/users/profile/:p',
]);
const HASH_KEYS = /^(password|password_hash|passwordHash|hash|salt)$/i;

describe('access matrix (embedded stack)', () => {
  let stack: EmbeddedStack;
  let previousSecret: string | undefined;
  const members = {} as Record<Exclude<Who, 'visitor'>, Member>;
  const ids: Record<string, string> = {};
  let matrixCases = 0;
  let scannedReplies = 0;
  const leaks: string[] = [];

  /** Every reply a member reads is scanned: no hash-like keys, no email but the reader's own. */
  function scan(who: Who, label: string, res: ProbeReply): void {
    scannedReplies++;
    const keys = keysOf(res.json).filter((k) => HASH_KEYS.test(k));
    if (keys.length) leaks.push(`${who} ${label}: keys ${keys.join(', ')}`);
    if (/\$2[aby]\$\d\d\$/.test(res.text)) leaks.push(`${who} ${label}: a bcrypt hash`);
    for (const [name, m] of Object.entries(members)) {
      if (name !== who && res.text.toLowerCase().includes(m.email)) leaks.push(`${who} ${label}: the email of ${name}`);
    }
  }

  async function as(who: Who, method: string, path: string, body?: unknown): Promise<ProbeReply> {
    const token = who === 'visitor' ? undefined : members[who].token;
    const res = await probe(stack.url, { method, path, token, body, timeoutMs: 15_000 });
    if (method === 'GET') scan(who, `${method} ${path}`, res);
    return res;
  }

  async function ok<T>(who: Who, method: string, path: string, body?: unknown): Promise<T> {
    const res = await as(who, method, path, body);
    if (res.status >= 300) throw new Error(`${who} ${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`);
    return (res.json as { data: T }).data;
  }

  const fill = (path: string) => path.replace(/:([A-Za-z]+)/g, (_m, name: string) => ids[name] ?? name);

  async function check(cases: Case[]): Promise<string[]> {
    const wrong: string[] = [];
    for (const c of cases) {
      const res = await as(c.who, c.method, fill(c.path), c.body);
      matrixCases++;
      if (!c.allowed.includes(res.status)) wrong.push(`${c.who} ${c.method} ${c.path}: ${res.status} (want ${c.allowed.join('/')}) ${res.text.slice(0, 120)}`);
      else if (res.status >= 400 && !isErrorEnvelope(res.json)) wrong.push(`${c.who} ${c.method} ${c.path}: ${res.status} without an envelope`);
    }
    return wrong;
  }

  beforeAll(async () => {
    previousSecret = process.env.JWT_SECRET;
    process.env.JWT_SECRET = SECRET;
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    const register = async (email: string, name: string): Promise<Member> => {
      const res = await probe(stack.url, { method: 'POST', path: '/api/auth/register', body: { email, name, password: 'lamp-desk-battery-42' } });
      expect(res.status).toBe(201);
      const data = (res.json as { data: { token: string; user: { id: string; username: string } } }).data;
      return { id: data.user.id, username: data.user.username, email, token: data.token };
    };
    members.owner = await register('owner.ayse@example.com', 'Ayse Owner');
    members.other = await register('other.omer@example.com', 'Omer Other');
    members.blocked = await register('blocked.xavi@example.com', 'Xavi Blocked');
    Object.assign(ids, { owner: members.owner.id, other: members.other.id, blocked: members.blocked.id, ownerName: members.owner.username });
    await stack.settle();

    ids.product = (await ok<{ id: string }>('owner', 'POST', '/api/products', { name: 'Kettle', category: 'Kitchen', price: 25 })).id;
    ids.review = (await ok<{ id: string }>('owner', 'POST', '/api/reviews', { product_id: ids.product, rating: 5, title: 'Boils', content: 'Fast.' })).id;
    ids.comment = (await ok<{ id: string }>('owner', 'POST', `/api/reviews/${ids.review}/comments`, { content: 'Mine' })).id;
    ids.list = (await ok<{ id: string }>('owner', 'POST', '/api/lists', { name: 'Kitchen', visibility: 'public' })).id;
    ids.privateList = (await ok<{ id: string }>('owner', 'POST', '/api/lists', { name: 'Gifts', visibility: 'private' })).id;
    await ok('owner', 'POST', `/api/lists/${ids.list}/items`, { product_id: ids.product, note: 'Mine' });
    ids.squad = (await ok<{ id: string }>('owner', 'POST', '/api/squads', { name: 'Tea Time', category: 'Food' })).id;
    await stack.settle();
    ids.joinRequest = (await ok<{ id: string }>('other', 'POST', `/api/squads/${ids.squad}/request-join`, { message: 'hi' })).id;
    // The blocked member follows and writes to the owner before the block, so there is something to protect.
    await ok('blocked', 'POST', `/api/follows/users/${ids.owner}`);
    await stack.settle();
    ids.conversation = (await ok<{ id: string }>('owner', 'POST', '/api/messages/conversations', { memberIds: [ids.blocked] })).id;
    await ok('owner', 'POST', `/api/messages/conversations/${ids.conversation}/messages`, { content: 'private words' });
    await stack.settle();
    await ok('owner', 'POST', `/api/users/${ids.blocked}/block`);
    await stack.settle();
    // Taken after the block, which clears notifications between the two: this one is the join request's.
    const notes = await ok<{ id: string }[]>('owner', 'GET', '/api/notifications');
    expect(notes.length).toBeGreaterThan(0);
    ids.notification = notes[0].id;
  }, 30_000);

  afterAll(async () => {
    console.log(`access: ${matrixCases} matrix cases, ${scannedReplies} replies scanned for hashes and emails`);
    await stack?.close();
    if (previousSecret === undefined) delete process.env.JWT_SECRET;
    else process.env.JWT_SECRET = previousSecret;
  });

  it('a visitor gets a 401 envelope on every protected route the controllers declare', async () => {
    const wrong: string[] = [];
    let protectedRoutes = 0;
    for (const route of declaredRoutes()) {
      if (PUBLIC.has(route)) continue;
      protectedRoutes++;
      const [method, path] = route.split(' ');
      const res = await as('visitor', method, path.replace(/:p/g, ids.review), method === 'GET' ? undefined : {});
      matrixCases++;
      if (res.status !== 401 || !isErrorEnvelope(res.json)) wrong.push(`${route}: ${res.status}`);
    }
    expect(wrong).toEqual([]);
    expect(protectedRoutes).toBeGreaterThanOrEqual(75);
  });

  it("another member cannot read or change the owner's conversations, notifications, join requests, reviews, products, comments and squad", async () => {
    const denied = [403, 404];
    const cases: Case[] = [
      { who: 'other', method: 'GET', path: '/api/messages/conversations/:conversation/messages', allowed: denied },
      { who: 'other', method: 'POST', path: '/api/messages/conversations/:conversation/messages', body: { content: 'let me in' }, allowed: denied },
      { who: 'other', method: 'GET', path: '/api/messages/conversations/:conversation/members', allowed: denied },
      { who: 'other', method: 'POST', path: '/api/messages/conversations/:conversation/read', allowed: denied },
      { who: 'other', method: 'GET', path: '/api/messages/squads/:squad/conversation', allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/notifications/:notification/read', allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/notifications/:notification', allowed: denied },
      { who: 'other', method: 'GET', path: '/api/squads/:squad/join-requests', allowed: [403] },
      { who: 'other', method: 'POST', path: '/api/squads/:squad/join-requests/:joinRequest', body: { action: 'approve' }, allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/squads/:squad', body: { description: 'mine now' }, allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/squads/:squad', allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/squads/:squad/members/:owner', body: { role: 'member' }, allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/squads/:squad/members/:owner', allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/reviews/:review', body: { title: 'defaced' }, allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/reviews/:review', allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/products/:product', body: { name: 'defaced' }, allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/products/:product', allowed: denied },
      { who: 'other', method: 'DELETE', path: '/api/comments/:comment', allowed: denied },
      { who: 'other', method: 'PUT', path: '/api/lists/:list', body: { name: 'defaced' }, allowed: [403] },
      { who: 'other', method: 'DELETE', path: '/api/lists/:list', allowed: [403] },
      { who: 'other', method: 'POST', path: '/api/lists/:list/items', body: { product_id: ids.product }, allowed: [403] },
      { who: 'other', method: 'DELETE', path: '/api/lists/:list/items/:product', allowed: [403] },
      { who: 'other', method: 'GET', path: '/api/lists/:privateList', allowed: [404] },
      { who: 'other', method: 'PUT', path: '/api/lists/:privateList', body: { name: 'defaced' }, allowed: [404] },
      // The same doors for the blocked member, who is in the conversation but no squad admin.
      { who: 'blocked', method: 'GET', path: '/api/squads/:squad/join-requests', allowed: [403] },
      { who: 'blocked', method: 'PUT', path: '/api/reviews/:review', body: { title: 'defaced' }, allowed: denied },
      { who: 'blocked', method: 'DELETE', path: '/api/products/:product', allowed: denied },
      { who: 'blocked', method: 'PUT', path: '/api/notifications/:notification/read', allowed: denied },
      // Issue 31 §7: a role-gated route answers 403 before it reads the body, so a malformed one learns nothing.
      ...(['other', 'blocked'] as const).flatMap((who): Case[] => [
        { who, method: 'GET', path: '/api/squads/:squad/join-requests?status=maybe&unknown=1', allowed: [403] },
        { who, method: 'POST', path: '/api/squads/:squad/join-requests/:joinRequest', body: { action: 'shrug', extra: 1 }, allowed: [403] },
        { who, method: 'PUT', path: '/api/squads/:squad', body: { name: 7, extra: 1 }, allowed: [403] },
        { who, method: 'PUT', path: '/api/squads/:squad/members/:owner', body: { role: 'emperor' }, allowed: [403] },
      ]),
      // Issue 22 §4: an image message is a message (members only); a read is the member's own.
      { who: 'other', method: 'POST', path: '/api/messages/conversations/:conversation/messages', body: { attachments: [{ url: '/api/media/abc' }] }, allowed: denied },
    ];
    expect(await check(cases)).toEqual([]);

    // Nothing moved: the owner still sees everything as it was.
    expect(await ok<{ title: string }>('owner', 'GET', `/api/reviews/${ids.review}`)).toMatchObject({ title: 'Boils' });
    expect(await ok<{ name: string }>('owner', 'GET', `/api/products/${ids.product}`)).toMatchObject({ name: 'Kettle' });
    expect(await ok<{ description: string; member_count: number }>('owner', 'GET', `/api/squads/${ids.squad}`)).toMatchObject({ description: '', member_count: 1 });
    const pending = await ok<{ id: string }[]>('owner', 'GET', `/api/squads/${ids.squad}/join-requests?status=pending`);
    expect(pending.map((r) => r.id)).toEqual([ids.joinRequest]);
    const notes = await ok<{ id: string; is_read: boolean }[]>('owner', 'GET', '/api/notifications');
    expect(notes.find((n) => n.id === ids.notification)).toMatchObject({ is_read: false });
    const messages = await ok<{ content: string }[]>('owner', 'GET', `/api/messages/conversations/${ids.conversation}/messages`);
    expect(messages.map((m) => m.content)).toEqual(['private words']);
    expect((await as('owner', 'GET', `/api/reviews/${ids.review}/comments`)).json).toMatchObject({ meta: { total: 1 } });
    expect(await ok<{ name: string; item_count: number }>('owner', 'GET', `/api/lists/${ids.list}`)).toMatchObject({ name: 'Kitchen', item_count: 1 });
  });

  it('the owner passes the same doors (the denials above are about who, not about broken routes)', async () => {
    const cases: Case[] = [
      { who: 'owner', method: 'GET', path: '/api/messages/conversations/:conversation/messages', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/messages/conversations/:conversation/members', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/messages/squads/:squad/conversation', allowed: [200, 201] },
      { who: 'owner', method: 'GET', path: '/api/squads/:squad/join-requests', allowed: [200] },
      { who: 'owner', method: 'PUT', path: '/api/reviews/:review', body: { title: 'Boils' }, allowed: [200] },
      { who: 'owner', method: 'PUT', path: '/api/products/:product', body: { name: 'Kettle' }, allowed: [200] },
      { who: 'owner', method: 'PUT', path: '/api/squads/:squad', body: { description: '' }, allowed: [200] },
      { who: 'owner', method: 'PUT', path: '/api/notifications/:notification/read', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/lists/:privateList', allowed: [200] },
      { who: 'owner', method: 'PUT', path: '/api/lists/:list', body: { name: 'Kitchen' }, allowed: [200] },
      { who: 'owner', method: 'POST', path: '/api/lists/:list/items', body: { product_id: ids.product }, allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/lists/:list', allowed: [200] },
    ];
    expect(await check(cases)).toEqual([]);
  });

  it('a blocked member cannot follow, message or ask to join the blocker’s squad (403), nor the blocker follow them', async () => {
    const cases: Case[] = [
      { who: 'blocked', method: 'POST', path: '/api/follows/users/:owner', allowed: [403] },
      { who: 'blocked', method: 'POST', path: '/api/messages/conversations', body: { memberIds: [':owner'] }, allowed: [403] },
      { who: 'blocked', method: 'POST', path: '/api/messages/conversations/:conversation/messages', body: { content: 'still here?' }, allowed: [403] },
      { who: 'blocked', method: 'POST', path: '/api/squads/:squad/request-join', body: { message: 'please' }, allowed: [403] },
      // Lists hide across a block both ways as if they did not exist.
      { who: 'blocked', method: 'GET', path: '/api/lists/:list', allowed: [404] },
      { who: 'blocked', method: 'POST', path: '/api/lists/:list/items', body: { product_id: ids.product }, allowed: [404] },
      { who: 'owner', method: 'POST', path: '/api/follows/users/:blocked', allowed: [403] },
      { who: 'owner', method: 'POST', path: '/api/messages/conversations/:conversation/messages', body: { content: 'one more' }, allowed: [403] },
      { who: 'blocked', method: 'POST', path: '/api/messages/conversations/:conversation/messages', body: { attachments: [{ url: '/api/media/abc' }] }, allowed: [403] },
    ].map((c) => ({ ...c, body: c.body && JSON.parse(JSON.stringify(c.body).replace(/":owner"/g, `"${ids.owner}"`)) })) as Case[];
    expect(await check(cases)).toEqual([]);
    const status = await ok<{ isFollowed: boolean; isBlocked: boolean }>('owner', 'GET', `/api/follows/status/${ids.blocked}`);
    expect(status).toMatchObject({ isFollowed: false, isBlocked: true });
  });

  it('expired, foreign-key, alg:none, other-algorithm and malformed tokens are refused with 401, at the gateway and at each service', async () => {
    const claims = { sub: members.owner.id, username: members.owner.username };
    const now = Math.floor(Date.now() / 1000);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const forged: Record<string, string> = {
      expired: sign({ ...claims, iat: now - 7200, exp: now - 3600 }, SECRET, { algorithm: 'HS256' }),
      'another key': sign(claims, `another-${SECRET}`, { algorithm: 'HS256', expiresIn: 600 }),
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600 })}.`,
      'alg none, signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600 })}.${sign(claims, SECRET).split('.')[2]}`,
      HS512: sign(claims, SECRET, { algorithm: 'HS512', expiresIn: 600 }),
      'not before': sign({ ...claims, nbf: now + 3600 }, SECRET, { algorithm: 'HS256', expiresIn: 7200 }),
      'no exp': sign(claims, SECRET, { algorithm: 'HS256' }),
      garbage: 'not.a.jwt',
      empty: '',
    };
    // A valid token signed here proves the secret is the one the stack uses (so the refusals mean something).
    const genuine = sign(claims, SECRET, { algorithm: 'HS256', expiresIn: 600 });
    expect((await probe(stack.url, { method: 'GET', path: '/api/auth/me', token: genuine })).status).toBe(200);

    const targets: [string, string][] = [
      ['gateway', `${stack.url}`],
      ...Object.entries(stack.serviceUrls).map(([name, url]) => [name, url as string] as [string, string]),
    ];
    const pathOf: Record<string, string> = {
      gateway: '/api/auth/me',
      auth: '/api/auth/me',
      social: '/api/users/settings',
      reviews: '/api/feed',
      squads: '/api/squads/my-squads',
      messaging: '/api/messages/conversations',
      notifications: '/api/notifications',
    };
    const wrong: string[] = [];
    for (const [target, base] of targets) {
      for (const [label, token] of Object.entries(forged)) {
        const res = await probe(base, { method: 'GET', path: pathOf[target], headers: { authorization: `Bearer ${token}` } });
        matrixCases++;
        if (res.status !== 401 || !isErrorEnvelope(res.json)) wrong.push(`${target} ${label}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no reply to any member holds a password hash or another member’s email', async () => {
    const gets = [
      '/api/auth/me',
      '/api/auth/users?limit=100',
      '/api/users/search?search=',
      '/api/users/suggestions?limit=20',
      '/api/users/profile/:ownerName',
      '/api/users/stats',
      '/api/users/blocked',
      '/api/users/mutes',
      '/api/follows/followers',
      '/api/follows/following',
      '/api/follows/followers/:owner',
      '/api/follows/following/:owner',
      '/api/follows/status/:owner',
      '/api/follows/requests',
      '/api/follows/requests?direction=outgoing',
      '/api/products',
      '/api/products/:product',
      '/api/reviews',
      '/api/reviews/:review',
      '/api/reviews/:review/comments',
      '/api/likes/reviews/:review/users',
      '/api/likes/reviews/:review/status',
      '/api/feed',
      '/api/activities/feed',
      '/api/activities/user?userId=:owner',
      '/api/saved',
      '/api/lists',
      '/api/lists?userId=:owner',
      '/api/lists/:list',
      '/api/squads/discover',
      '/api/squads/my-squads',
      '/api/squads/:squad',
      '/api/squads/:squad/join-requests',
      '/api/squads/stats',
      '/api/messages/conversations',
      '/api/messages/conversations/:conversation/messages',
      '/api/messages/conversations/:conversation/members',
      '/api/notifications',
      '/api/trending',
      '/api/search?q=lamp',
      '/api/reviews/search?q=lamp',
    ];
    const before = scannedReplies;
    for (const who of ['owner', 'other', 'blocked'] as const) {
      for (const path of gets) await as(who, 'GET', fill(path));
    }
    expect(scannedReplies - before).toBe(gets.length * 3);
    // The scan is live: the owner's own profile carries the owner's email, and no one else's.
    expect((await as('owner', 'GET', '/api/auth/me')).text).toContain(members.owner.email);
    expect(leaks).toEqual([]);
  });

  it('a review hidden by a block or by its author going private is hidden on every read path, saved items included (issue 17 §2)', async () => {
    const join = async (name: string): Promise<Member> => {
      const email = `${name}.vis@example.com`;
      const res = await probe(stack.url, { method: 'POST', path: '/api/auth/register', body: { email, name, password: 'lamp-desk-battery-42' } });
      const data = (res.json as { data: { token: string; user: { id: string; username: string } } }).data;
      return { id: data.user.id, username: data.user.username, email, token: data.token };
    };
    const call = async (m: Member, method: string, path: string, body?: unknown) => {
      const res = await probe(stack.url, { method, path, token: m.token, body, timeoutMs: 15_000 });
      if (res.status >= 300 && method !== 'GET') throw new Error(`${method} ${path} -> ${res.status} ${res.text.slice(0, 200)}`);
      return res;
    };
    const [blocker, blockedReader, goesPrivate, stranger] = [await join('blocker'), await join('reader'), await join('private'), await join('stranger')];
    await stack.settle();
    const post = async (author: Member, title: string) =>
      ((await call(author, 'POST', '/api/reviews', { rating: 4, title, content: `About ${title}` })).json as { data: { id: string } }).data.id;
    const blockedReview = await post(blocker, 'Blocked words');
    const privateReview = await post(goesPrivate, 'Private words');
    for (const [reader, review] of [[blockedReader, blockedReview], [stranger, privateReview]] as const) {
      await call(reader, 'POST', `/api/saved/reviews/${review}`);
      await call(reader, 'POST', `/api/likes/reviews/${review}`);
    }
    await stack.settle();
    /** What each read path shows `reader` of `review`: a 200 and the id in the reply, or not. */
    const shows = async (reader: Member, review: string, author: Member) => {
      const paths = {
        review: `/api/reviews/${review}`,
        saved: '/api/saved?type=reviews',
        list: '/api/reviews?limit=100',
        byAuthor: `/api/reviews?userId=${author.id}`,
        activities: '/api/activities/feed',
        authorActivities: `/api/activities/user?userId=${author.id}`,
      };
      const seen: Record<string, boolean> = {};
      for (const [name, path] of Object.entries(paths)) {
        const res = await call(reader, 'GET', path);
        seen[name] = res.status === 200 && res.text.includes(review);
      }
      return seen;
    };
    const everywhere = { review: true, saved: true, list: true, byAuthor: true, activities: true, authorActivities: true };
    const nowhere = { review: false, saved: false, list: false, byAuthor: false, activities: false, authorActivities: false };
    expect(await shows(blockedReader, blockedReview, blocker)).toEqual(everywhere);
    expect(await shows(stranger, privateReview, goesPrivate)).toEqual(everywhere);

    await call(blocker, 'POST', `/api/users/${blockedReader.id}/block`);
    await call(goesPrivate, 'PUT', '/api/users/settings', { privacy_profile: 'private' });
    await stack.settle();
    expect(await shows(blockedReader, blockedReview, blocker)).toEqual(nowhere);
    expect(await shows(stranger, privateReview, goesPrivate)).toEqual(nowhere);
    const saved = (await call(stranger, 'GET', '/api/saved?type=reviews')).json as { meta: { total: number } };
    expect(saved.meta.total).toBe(0);
    // The author still sees their own review everywhere.
    expect(await shows(goesPrivate, privateReview, goesPrivate)).toMatchObject({ review: true, list: true, byAuthor: true });
  });

  it('mutes (issue 22 §1): idempotent for the muter, 400 on oneself, 404 on nobody; silent for the muted, who keeps every door', async () => {
    const cases: Case[] = [
      { who: 'owner', method: 'POST', path: '/api/users/:other/mute', allowed: [200] },
      { who: 'owner', method: 'POST', path: '/api/users/:other/mute', allowed: [200] },
      { who: 'owner', method: 'POST', path: '/api/users/:owner/mute', allowed: [400] },
      { who: 'owner', method: 'DELETE', path: '/api/users/:owner/mute', allowed: [400] },
      { who: 'owner', method: 'POST', path: '/api/users/nobody/mute', allowed: [404] },
      { who: 'owner', method: 'GET', path: '/api/users/mutes', allowed: [200] },
      // The muted member is never told and is refused nothing.
      { who: 'other', method: 'GET', path: '/api/users/mutes', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/reviews/:review', allowed: [200] },
      { who: 'other', method: 'POST', path: '/api/likes/reviews/:review', allowed: [200, 201] },
      { who: 'other', method: 'POST', path: '/api/reviews/:review/comments', body: { content: 'still here' }, allowed: [201] },
      { who: 'other', method: 'POST', path: '/api/follows/users/:owner', allowed: [200] },
    ];
    expect(await check(cases)).toEqual([]);
    await stack.settle();
    expect((await ok<{ id: string }[]>('owner', 'GET', '/api/users/mutes')).map((m) => m.id)).toEqual([ids.other]);
    expect(await ok<unknown[]>('other', 'GET', '/api/users/mutes')).toEqual([]);
    const seenByMuted = await as('other', 'GET', `/api/follows/status/${ids.owner}`);
    expect(seenByMuted.text).not.toMatch(/mute/i);
    const notes = await ok<{ related_user: { id: string } | null }[]>('owner', 'GET', '/api/notifications');
    expect(notes.filter((n) => n.related_user?.id === ids.other).length).toBe(1);

    expect(await check([
      { who: 'owner', method: 'DELETE', path: '/api/users/:other/mute', allowed: [200] },
      { who: 'owner', method: 'DELETE', path: '/api/users/:other/mute', allowed: [200] },
    ])).toEqual([]);
    expect(await ok<unknown[]>('owner', 'GET', '/api/users/mutes')).toEqual([]);
  });

  it('keyword filters and moderation (issue 22 §2, §3): own filters only; members 403, moderators and the admin (first account) pass, whoever blocked or muted whom', async () => {
    ids.filter = (await ok<{ id: string }>('other', 'POST', '/api/filters', { phrase: 'kettle' })).id;
    const reason = { reason: 'checked' };
    expect(await check([
      { who: 'other', method: 'GET', path: '/api/filters', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/filters/:filter', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/filters/:filter', allowed: [404] },
      { who: 'blocked', method: 'DELETE', path: '/api/filters/:filter', allowed: [404] },
      { who: 'blocked', method: 'POST', path: '/api/filters', body: { phrase: 'tea' }, allowed: [201] },
      // Members, the blocked one too, get 403 on every moderation route.
      ...(['other', 'blocked'] as const).flatMap((who): Case[] => [
        { who, method: 'GET', path: '/api/moderation/reports', allowed: [403] },
        { who, method: 'GET', path: '/api/moderation/log', allowed: [403] },
        { who, method: 'GET', path: '/api/moderation/staff', allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reports/none/dismiss', body: reason, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reviews/:review/hide', body: reason, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reviews/:review/unhide', body: reason, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/suspensions/:owner', body: { hours: 1, reason: 'x' }, allowed: [403] },
        { who, method: 'PUT', path: '/api/moderation/roles/:other', body: { role: 'moderator', reason: 'x' }, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/comments/:comment/hide', body: reason, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/comments/:comment/unhide', body: reason, allowed: [403] },
        // Issue 31 §7: malformed bodies and queries get the same 403, never a 400 that shows the shape.
        { who, method: 'GET', path: '/api/moderation/reports?status=whatever&unknown=1', allowed: [403] },
        { who, method: 'GET', path: '/api/moderation/log?limit=-1&unknown=1', allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reports/none/dismiss', body: { reason: 7, extra: 1 }, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reviews/:review/hide', body: {}, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/reviews/:review/unhide', body: { reason: '' }, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/suspensions/:owner', body: { hours: 'soon' }, allowed: [403] },
        { who, method: 'PUT', path: '/api/moderation/roles/:other', body: { role: 'emperor' }, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/comments/:comment/hide', body: { reason: ['x'] }, allowed: [403] },
        { who, method: 'POST', path: '/api/moderation/comments/:comment/unhide', body: { extra: true }, allowed: [403] },
      ]),
      // Reporting a comment: not one's own, not on a review one may not see.
      { who: 'owner', method: 'POST', path: '/api/comments/:comment/report', body: {}, allowed: [400] },
      { who: 'blocked', method: 'POST', path: '/api/comments/:comment/report', body: {}, allowed: [403, 404] },
      { who: 'other', method: 'POST', path: '/api/comments/:comment/report', body: reason, allowed: [201] },
      // The first account is the admin.
      { who: 'owner', method: 'GET', path: '/api/moderation/reports', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/moderation/log', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/moderation/staff', allowed: [200] },
      { who: 'owner', method: 'POST', path: '/api/moderation/reports/none/dismiss', body: reason, allowed: [404] },
      { who: 'owner', method: 'PUT', path: '/api/moderation/roles/:owner', body: { role: 'member', reason: 'x' }, allowed: [400] },
      { who: 'owner', method: 'PUT', path: '/api/moderation/roles/:other', body: { role: 'moderator', reason: 'helps' }, allowed: [200] },
    ])).toEqual([]);
    await stack.settle();
    // The appointment applies to the token in use (issue 31 §1): no new sign-in.
    expect((await as('other', 'GET', '/api/filters')).status).toBe(200);
    // The admin mutes the moderator: moderation does not care.
    await ok('owner', 'POST', `/api/users/${ids.other}/mute`);
    await stack.settle();
    expect(await check([
      { who: 'other', method: 'GET', path: '/api/moderation/reports', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/moderation/log', allowed: [200] },
      { who: 'other', method: 'PUT', path: '/api/moderation/roles/:blocked', body: { role: 'moderator', reason: 'x' }, allowed: [403] },
      { who: 'other', method: 'PUT', path: '/api/moderation/roles/:blocked', body: { role: 'emperor' }, allowed: [403] },
      { who: 'other', method: 'POST', path: '/api/moderation/suspensions/:owner', body: { hours: 1, reason: 'x' }, allowed: [403] },
      { who: 'other', method: 'POST', path: '/api/moderation/reviews/:review/hide', body: reason, allowed: [200] },
      { who: 'other', method: 'POST', path: '/api/moderation/reviews/:review/unhide', body: reason, allowed: [200] },
      { who: 'blocked', method: 'GET', path: '/api/reviews/:review', allowed: [403, 404] },
      { who: 'other', method: 'POST', path: '/api/moderation/comments/:comment/hide', body: reason, allowed: [200] },
      { who: 'other', method: 'POST', path: '/api/moderation/comments/:comment/unhide', body: reason, allowed: [200] },
    ])).toEqual([]);
    await ok('owner', 'DELETE', `/api/users/${ids.other}/mute`);
    await stack.settle();
  });

  it('hashtags (issue 21 §6): follows are idempotent and per member; a malformed tag is a 400; a blocked member does not see the blocker under a tag', async () => {
    await ok('owner', 'POST', '/api/reviews', { content: 'Sabah #Demlik' });
    await stack.settle();
    expect(await check([
      { who: 'other', method: 'POST', path: '/api/tags/Demlik/follow', allowed: [200] },
      { who: 'other', method: 'POST', path: '/api/tags/demlik/follow', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/tags/demlik', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/tags/demlik/reviews', allowed: [200] },
      { who: 'other', method: 'GET', path: '/api/trending/tags', allowed: [200] },
      { who: 'owner', method: 'GET', path: '/api/tags/a-b/reviews', allowed: [400] },
      { who: 'owner', method: 'DELETE', path: '/api/tags/a-b/follow', allowed: [400] },
      { who: 'blocked', method: 'GET', path: '/api/tags/demlik/reviews', allowed: [200] },
    ])).toEqual([]);
    expect((await ok<{ following: boolean }>('other', 'GET', '/api/tags/demlik')).following).toBe(true);
    expect((await ok<{ following: boolean }>('owner', 'GET', '/api/tags/demlik')).following).toBe(false);
    expect(await ok<unknown[]>('blocked', 'GET', '/api/tags/demlik/reviews')).toEqual([]);
    expect((await ok<unknown[]>('other', 'GET', '/api/tags/demlik/reviews')).length).toBe(1);
  });

  it("account deletion needs the caller's own password and touches no one else: a wrong or missing one is a 400, a visitor a 401", async () => {
    const cases: Case[] = [
      { who: 'other', method: 'DELETE', path: '/api/users/me', body: { password: 'not-omers-password' }, allowed: [400] },
      { who: 'blocked', method: 'DELETE', path: '/api/users/me', body: {}, allowed: [400] },
      { who: 'visitor', method: 'DELETE', path: '/api/users/me', body: { password: 'lamp-desk-battery-42' }, allowed: [401] },
    ];
    expect(await check(cases)).toEqual([]);
    expect(await ok<{ id: string }>('owner', 'GET', '/api/auth/me')).toMatchObject({ id: ids.owner });
    expect(await ok<{ id: string }>('other', 'GET', '/api/auth/me')).toMatchObject({ id: ids.other });
  });
});
