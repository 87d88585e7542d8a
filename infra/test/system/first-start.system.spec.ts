import { freePort } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { probe, ProbeReply } from './http-probe';

/**
 * Issue 46 case 2: with the rate limits on, a client that sends a dozen wrong sign-ins from the
 * loopback address while the demo seed runs used to make the seed's own sign-in answer 429, and
 * the process exited after it had answered requests. The seed now runs inside the stack and the
 * public port answers 503 "starting" until it has settled.
 */
describe('a first start with the demo seed cannot be failed from outside (embedded stack)', () => {
  let stack: EmbeddedStack | undefined;

  afterAll(async () => {
    await stack?.close();
  });

  it('answers 503 starting with Retry-After while seeding, finishes the seed, and then serves', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const starting = startEmbeddedStack({ port, host: '127.0.0.1', dataDir: ':memory:', seed: true, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'on' } });
    let started = false;
    void starting.then(() => (started = true), () => (started = true));
    const wrongSignIn = () =>
      probe(base, { method: 'POST', path: '/api/auth/login', body: { email: 'ayse@demo.local', password: 'not-the-password-1' } }).catch(() => undefined);
    // As soon as the port answers, a dozen wrong sign-ins, again and again until the stack is up.
    const replies: ProbeReply[] = [];
    while (!started) {
      const batch = await Promise.all(Array.from({ length: 12 }, wrongSignIn));
      replies.push(...batch.filter((r): r is ProbeReply => r !== undefined));
      if (batch.every((r) => r === undefined)) await new Promise((r) => setTimeout(r, 20));
    }
    stack = await starting;
    expect(stack.seedFailure).toBeUndefined();
    expect(stack.seeded?.users.length).toBeGreaterThan(0);
    const whileStarting = replies.filter((r) => r.status === 503);
    expect(whileStarting.length).toBeGreaterThan(0);
    expect(whileStarting[0].headers['retry-after']).toBe('5');
    expect(whileStarting[0].json).toMatchObject({ success: false, message: 'starting' });
    expect((await probe(base, { method: 'GET', path: '/health/live' })).status).toBe(200);
    // Served now: the wrong sign-ins that came after the gate opened met the members' limits (401, then 429)...
    expect(replies.filter((r) => r.status !== 503).every((r) => r.status === 401 || r.status === 429)).toBe(true);
    // ...and the seeded demo is there: a demo member's session works, the feed holds the seeded reviews.
    const feed = await probe(base, { method: 'GET', path: '/api/feed', token: stack.seeded?.users[0].token });
    expect(feed.status).toBe(200);
    expect((feed.json as { data: unknown[] }).data.length).toBeGreaterThan(0);
  }, 120_000);
});
