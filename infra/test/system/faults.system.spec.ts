import { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import request from 'supertest';
import { BusTransport, createTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { TEST_JWT_SECRET, testConfig } from '@app/testing';
import { describeWithRedis, RedisServerHandle, startRedisServer } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { authService } from '../../../services/auth/src/auth.service-definition';
import { notificationsService } from '../../../services/notifications/src/notifications.service-definition';
import { socialService } from '../../../services/social/src/social.service-definition';

/**
 * Issue 11 §3: a service that is down answers 503 envelopes for its routes while the others
 * keep working, and comes back without a gateway restart; a bus outage (Redis stopped) loses
 * no event: writes go on, their events wait in the outbox and arrive once Redis is back.
 * (The gateway's upstream time-out, 504, is in auth.system.spec.ts.)
 */

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a service down behind the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let auth: { Authorization: string };

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    const reg = await request(stack.url).post('/api/auth/register').send({ email: 'fault@example.com', name: 'Fault Drill', password: 'lamp-desk-battery-42' });
    auth = { Authorization: `Bearer ${reg.body.data.token}` };
    await stack.settle();
  });

  afterAll(() => stack.close());

  it('answers 503 envelopes for the stopped service only, and recovers without a gateway restart', async () => {
    const before = await request(stack.url).get('/api/feed').set(auth);
    expect(before.status).toBe(200);

    await stack.stopService('reviews');
    for (const [method, path] of [
      ['get', '/api/feed'],
      ['get', '/api/products'],
      ['post', '/api/reviews'],
    ] as const) {
      const res = await request(stack.url)[method](path).set(auth).send(method === 'post' ? { rating: 5 } : undefined);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 503,
        body: { success: false, message: 'The reviews service is unavailable', code: 'SERVICE_UNAVAILABLE' },
      });
    }
    // Everything else keeps working meanwhile.
    expect((await request(stack.url).get('/api/auth/me').set(auth)).status).toBe(200);
    expect((await request(stack.url).get('/api/notifications').set(auth)).status).toBe(200);
    expect((await request(stack.url).get('/api/squads/my-squads').set(auth)).status).toBe(200);
    expect((await request(stack.url).get('/api/messages/conversations').set(auth)).status).toBe(200);
    expect((await request(stack.url).get('/health/live')).status).toBe(200);

    await stack.restartService('reviews');
    const after = await request(stack.url).get('/api/feed').set(auth);
    expect(after.status).toBe(200);
    expect(after.body.success).toBe(true);
    const products = await request(stack.url).get('/api/products').set(auth);
    expect(products.status).toBe(200);
  });
});

describeWithRedis('faults.system.spec')('a bus outage (BUS=redis, Redis stopped and started again)', () => {
  const jwt = new JwtService({ secret: TEST_JWT_SECRET, signOptions: { algorithm: 'HS256', expiresIn: 3600 } });
  let redis: RedisServerHandle;
  const apps: Partial<Record<'auth' | 'social' | 'notifications', INestApplication>> = {};
  const transports: BusTransport[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    const config = testConfig({ BUS: 'redis', REDIS_URL: redis.url });
    // One transport per service, as separate processes would have.
    for (const definition of [authService, socialService, notificationsService]) {
      const transport = createTransport({ engine: 'redis', redisUrl: redis.url });
      transports.push(transport);
      apps[definition.name as keyof typeof apps] = await buildService(definition, { config, transport });
    }
  });

  afterAll(async () => {
    for (const app of Object.values(apps)) await app?.close();
    for (const t of transports) await t.close().catch(() => undefined);
    await redis?.stop();
  });

  const http = (name: keyof typeof apps) => request(apps[name]!.getHttpServer());

  async function register(name: string) {
    const res = await http('auth').post('/api/auth/register').send({ email: `${name.replace(/\W/g, '.')}@example.com`, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    const user = res.body.data.user as { id: string; username: string };
    return { ...user, auth: { Authorization: `Bearer ${jwt.sign({ sub: user.id, username: user.username })}` } };
  }

  it('accepts writes while Redis is down and delivers their events when it is back', async () => {
    const star = await register('star');
    const fans = [await register('fan one'), await register('fan two'), await register('fan three')];
    // The read models learn about the members over the bus before the outage: the Redis started
    // again is empty, so an event still on a stream then is gone (a member social never learned
    // of is left out of the followers list).
    for (const member of [star, ...fans]) {
      await until(`social to know ${member.username}`, async () => {
        const res = await http('social').get(`/api/follows/status/${member.id}`).set((member === star ? fans[0] : star).auth);
        return res.status === 200 ? true : undefined;
      });
    }

    const port = Number(new URL(redis.url).port);
    await redis.stop();

    for (const fan of fans) {
      const res = await http('social').post(`/api/follows/users/${star.id}`).set(fan.auth);
      expect(res.status).toBe(200);
    }
    // Nothing could be delivered: the star has no notification yet.
    await new Promise((r) => setTimeout(r, 1_500));
    const during = await http('notifications').get('/api/notifications').set(jwtAuth(jwt, star));
    expect(during.body.data).toEqual([]);

    redis = await startRedisServer({ port });

    const delivered = await until('the follow notifications', async () => {
      const res = await http('notifications').get('/api/notifications').set(jwtAuth(jwt, star));
      const items = (res.body.data ?? []) as { type: string; actor?: { id: string } }[];
      return items.length >= fans.length ? items : undefined;
    }, 30_000);
    expect(delivered).toHaveLength(fans.length);
    expect(delivered.every((n) => n.type === 'new_follower')).toBe(true);
    const followers = await http('social').get('/api/follows/followers').set(jwtAuth(jwt, star));
    expect(followers.body.data).toHaveLength(fans.length);
  });
});

function jwtAuth(jwt: JwtService, user: { id: string; username: string }) {
  return { Authorization: `Bearer ${jwt.sign({ sub: user.id, username: user.username })}` };
}
