import { createServer, Server } from 'node:http';
import request from 'supertest';
import { GatewayRequest } from '../access/token-check';
import { loadGatewayConfig } from '../gateway.app';
import { runSteps, underApi } from '../http/pipeline';
import { createRateLimits, RateLimitSettings, rateLimitSettings } from './rate-limits';

const LOOSE = '1000/60';

/** The limits behind a stand-in for the token check (`x-member` is the member) and a 200 upstream. */
function appWith(overrides: Partial<RateLimitSettings>) {
  const settings: RateLimitSettings = {
    enabled: true,
    login: LOOSE,
    register: LOOSE,
    writes: LOOSE,
    reviews: LOOSE,
    likes: LOOSE,
    messages: LOOSE,
    follows: LOOSE,
    ...overrides,
  };
  const limits = underApi(createRateLimits(settings));
  return createServer((req: GatewayRequest, res) => {
    req.userId = (req.headers['x-member'] as string | undefined) ?? undefined;
    runSteps([limits], req, res, () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"success":true}');
    });
  });
}

async function statuses(app: Server, member: string, paths: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const path of paths) out.push((await request(app).post(path).set('x-member', member).send({})).status);
  return out;
}

describe('per-member rate limits for reviews, likes, messages and follows', () => {
  it('answers the third review of a member in the window with 429, Retry-After and an envelope', async () => {
    const app = appWith({ reviews: '2/60' });
    expect(await statuses(app, 'm1', ['/api/reviews', '/api/reviews'])).toEqual([200, 200]);
    const refused = await request(app).post('/api/reviews').set('x-member', 'm1').send({});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toEqual({ success: false, message: 'Too many requests, please try again later', code: 'RATE_LIMITED' });
    // Another member has their own budget; the member's other writes are not reviews.
    expect(await statuses(app, 'm2', ['/api/reviews'])).toEqual([200]);
    expect(await statuses(app, 'm1', ['/api/reviews/r1/comments', '/api/products'])).toEqual([200, 200]);
    // A trailing slash or a query string is the same route.
    expect(await statuses(app, 'm2', ['/api/reviews/', '/api/reviews?x=1'])).toEqual([200, 429]);
  });

  it('counts likes of reviews and products in one budget', async () => {
    const app = appWith({ likes: '3/60' });
    expect(await statuses(app, 'm1', ['/api/likes/reviews/a', '/api/likes/products/b', '/api/likes/reviews/c', '/api/likes/products/d'])).toEqual([
      200, 200, 200, 429,
    ]);
  });

  it('limits messages sent and follows (and follow requests) per member', async () => {
    const app = appWith({ messages: '2/60', follows: '1/60' });
    expect(
      await statuses(app, 'm1', ['/api/messages/conversations/c1/messages', '/api/messages/conversations/c2/messages', '/api/messages/conversations/c1/messages']),
    ).toEqual([200, 200, 429]);
    // Starting a conversation or marking it read is not sending a message.
    expect(await statuses(app, 'm1', ['/api/messages/conversations', '/api/messages/conversations/c1/read'])).toEqual([200, 200]);
    expect(await statuses(app, 'm1', ['/api/follows/users/u1', '/api/follows/users/u2'])).toEqual([200, 429]);
    expect(await statuses(app, 'm1', ['/api/follows/requests/u3/accept'])).toEqual([200]);
  });

  it('leaves reads and visitors alone', async () => {
    const app = appWith({ reviews: '1/60' });
    for (let i = 0; i < 3; i++) expect((await request(app).get('/api/reviews').set('x-member', 'm1')).status).toBe(200);
    // No member (the token check refuses these before us): nothing to count under.
    expect((await request(app).post('/api/reviews').send({})).status).toBe(200);
    expect((await request(app).post('/api/reviews').send({})).status).toBe(200);
  });

  it('counts every write against RATE_LIMIT_WRITES as well', async () => {
    const app = appWith({ writes: '2/60' });
    expect(await statuses(app, 'm1', ['/api/likes/reviews/a', '/api/reviews', '/api/follows/users/u'])).toEqual([200, 200, 429]);
  });

  it('turns every limit off with RATE_LIMITS=off', async () => {
    const app = appWith({ enabled: false, reviews: '1/60', likes: '1/60', messages: '1/60', follows: '1/60', writes: '1/60' });
    const paths = ['/api/reviews', '/api/likes/reviews/a', '/api/messages/conversations/c/messages', '/api/follows/users/u'];
    expect(await statuses(app, 'm1', [...paths, ...paths])).toEqual(Array(8).fill(200));
  });
});

describe('rate limit settings from the environment', () => {
  const env = { JWT_SECRET: 'x'.repeat(32) };

  it('reads RATE_LIMIT_REVIEWS, _LIKES, _MESSAGES and _FOLLOWS with defaults', () => {
    expect(rateLimitSettings(loadGatewayConfig(env))).toMatchObject({
      enabled: true,
      reviews: '20/600',
      likes: '60/60',
      messages: '60/60',
      follows: '30/600',
    });
    const set = rateLimitSettings(
      loadGatewayConfig({ ...env, RATE_LIMITS: 'off', RATE_LIMIT_REVIEWS: '1/1', RATE_LIMIT_LIKES: '2/2', RATE_LIMIT_MESSAGES: '3/3', RATE_LIMIT_FOLLOWS: '4/4' }),
    );
    expect(set).toMatchObject({ enabled: false, reviews: '1/1', likes: '2/2', messages: '3/3', follows: '4/4' });
  });

  it('refuses a malformed or zero limit at boot', () => {
    expect(() => loadGatewayConfig({ ...env, RATE_LIMIT_LIKES: 'lots' })).toThrow(/RATE_LIMIT_LIKES: must look like points\/seconds/);
    expect(() => loadGatewayConfig({ ...env, RATE_LIMIT_FOLLOWS: '0/60' })).toThrow(/RATE_LIMIT_FOLLOWS/);
  });
});

describe('password reset and two-factor budget', () => {
  it('gives reset and two-factor calls the login rate per address, apart from login itself', async () => {
    const app = appWith({ login: '3/60' });
    const paths = ['/api/auth/password-reset', '/api/auth/password-reset/confirm/', '/api/auth/2FA/verify', '/api/auth/2fa/disable'];
    expect(await statuses(app, '', paths)).toEqual([200, 200, 200, 429]);
    expect(await statuses(app, '', ['/api/auth/login'])).toEqual([200]);
  });
});
