import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { probe, ProbeReply } from './http-probe';

/**
 * Issue 17 §1 through the real gateway and services: every limited route, spelled as the
 * services still route it (case, `//`, a trailing `/`, a percent-escape), counts against one
 * budget. Each spelling first succeeds once (so it is a real route, and the budget of as many
 * requests is spent), then each is refused with 429.
 */

const PASSWORD = 'correct-lamp-battery-42';

/** The spellings of one route; `:id` stays as given (ids are case-sensitive). */
function spellings(path: string): string[] {
  const segments = path.split('/');
  // The last static segment: `login` in /api/auth/login, `users` in /api/follows/users/:id.
  const at = segments.map((s, i) => (s && !s.startsWith(':') && s !== 'api' ? i : -1)).filter((i) => i > 0).pop() as number;
  const swap = (fn: (s: string) => string) => segments.map((s, i) => (i === at ? fn(s) : s)).join('/');
  return [
    path,
    swap((s) => s.toUpperCase()),
    swap((s) => `/${s}`),
    `${path}/`,
    swap((s) => `%${s.charCodeAt(0).toString(16)}${s.slice(1)}`),
  ];
}

interface Member {
  id: string;
  token: string;
}

describe('rate limits hold under every spelling of a limited path (RATE_LIMITS=on)', () => {
  const budget = spellings('/api/x').length;
  let stack: EmbeddedStack;
  let address = 0;
  const fromNewAddress = () => ({ 'x-forwarded-for': `10.0.0.${++address}` });
  const members: Member[] = [];

  const send = (method: string, path: string, member: Member | undefined, body?: unknown, headers?: Record<string, string>): Promise<ProbeReply> =>
    probe(stack.url, { method, path, token: member?.token, body, headers });

  async function register(name: string): Promise<Member> {
    const res = await send('POST', '/api/auth/register', undefined, { email: `${name}@example.com`, name, password: PASSWORD }, fromNewAddress());
    expect(res.status).toBe(201);
    const data = (res.json as { data: { token: string; user: { id: string } } }).data;
    return { id: data.user.id, token: data.token };
  }

  beforeAll(async () => {
    const rule = `${budget}/600`;
    stack = await startEmbeddedStack({
      port: 0,
      dataDir: ':memory:',
      seed: false,
      env: {
        LOG_LEVEL: 'silent',
        RATE_LIMITS: 'on',
        // Each member signs up from an address of its own, told by X-Forwarded-For: believed from loopback only when named.
        TRUST_PROXY: 'loopback',
        RATE_LIMIT_LOGIN: rule,
        RATE_LIMIT_REGISTER: rule,
        RATE_LIMIT_REVIEWS: rule,
        RATE_LIMIT_LIKES: rule,
        RATE_LIMIT_MESSAGES: rule,
        RATE_LIMIT_FOLLOWS: rule,
      },
    });
    for (let i = 0; i < 2 + budget * 2; i++) members.push(await register(`member${i}`));
    await stack.settle();
  });

  afterAll(() => stack.close());

  /** Every spelling succeeds once, then every spelling is refused: one budget for the route. */
  async function expectOneBudget(label: string, attempt: (path: string, i: number) => Promise<ProbeReply>, template: string): Promise<void> {
    const paths = spellings(template);
    const first: Array<[string, number]> = [];
    for (const [i, path] of paths.entries()) first.push([path, (await attempt(path, i)).status]);
    expect({ label, first }).toEqual({ label, first: paths.map((p) => [p, expect.any(Number)]) });
    expect(first.filter(([, status]) => status >= 300)).toEqual([]);
    const second: Array<[string, number]> = [];
    for (const [i, path] of paths.entries()) second.push([path, (await attempt(path, paths.length + i)).status]);
    expect({ label, second }).toEqual({ label, second: paths.map((p) => [p, 429]) });
  }

  it('login: one budget per address, whatever the spelling (a valid token sent along)', async () => {
    const [ada] = members;
    const headers = fromNewAddress();
    await expectOneBudget('login', (path) => send('POST', path, ada, { email: 'member0@example.com', password: PASSWORD }, headers), '/api/auth/login');
  });

  it('register: one budget per address', async () => {
    const headers = fromNewAddress();
    await expectOneBudget('register', (path, i) => send('POST', path, members[0], { email: `new${i}@example.com`, name: `New ${i}`, password: PASSWORD }, headers), '/api/auth/register');
  });

  it('reviews: one budget per member', async () => {
    const author = members[1];
    await expectOneBudget('reviews', (path, i) => send('POST', path, author, { rating: 4, title: `Review ${i}`, content: 'Fine.' }), '/api/reviews');
  });

  it('likes: one budget per member', async () => {
    const [ada] = members;
    const author = members[members.length - 1];
    const created = await send('POST', '/api/reviews', author, { rating: 5, title: 'Likeable', content: 'Yes.' });
    const reviewId = (created.json as { data: { id: string } }).data.id;
    await expectOneBudget('likes', (path) => send('POST', path.replace(':id', reviewId), ada), '/api/likes/reviews/:id');
  });

  it('follows: one budget per member', async () => {
    const [ada, ...others] = members;
    await expectOneBudget('follows', (path, i) => send('POST', path.replace(':id', others[i].id), ada), '/api/follows/users/:id');
  });

  it('messages: one budget per member', async () => {
    const [, , cem, dan] = members;
    const started = await send('POST', '/api/messages/conversations', cem, { memberIds: [dan.id] });
    const conversationId = (started.json as { data: { id: string } }).data.id;
    await expectOneBudget(
      'messages',
      (path, i) => send('POST', path.replace(':id', conversationId), cem, { content: `hello ${i}` }),
      '/api/messages/conversations/:id/messages',
    );
  });
});
