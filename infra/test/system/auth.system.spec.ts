import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { TEST_JWT_SECRET } from '@app/testing';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

describe('auth through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', METRICS_PORT: '0' } });
  });

  afterAll(() => stack.close());

  it('registers, logs in, reads me and lists users', async () => {
    const reg = await request(stack.url)
      .post('/api/auth/register')
      .send({ email: 'deniz@example.com', name: 'Deniz Ak', password: 'lamp-desk-battery-42' });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ success: true, data: { user: { username: 'deniz_ak' } } });

    const login = await request(stack.url).post('/api/auth/login').send({ email: 'deniz@example.com', password: 'lamp-desk-battery-42' });
    expect(login.status).toBe(200);
    const token = login.body.data.token as string;

    const me = await request(stack.url).get('/api/auth/me').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: 'deniz@example.com', display_name: 'Deniz Ak' });
    expect(me.headers['x-request-id']).toEqual(expect.any(String));
    expect(me.headers['content-security-policy']).toContain("default-src 'self'");

    const users = await request(stack.url).get('/api/auth/users').set('Authorization', `Bearer ${token}`);
    expect(users.status).toBe(200);
    expect(users.body.data).toEqual([expect.not.objectContaining({ email: expect.anything() })]);
  });

  it('answers its own health route, not the web app; metrics only on the metrics port (issue 45 §4)', async () => {
    const live = await request(stack.url).get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    for (const url of [stack.url, stack.serviceUrls.auth as string, stack.serviceUrls.social as string]) {
      const open = await request(url).get('/metrics');
      expect({ url, status: open.status, leaks: open.text.includes('http_request_duration_seconds') }).toEqual({ url, status: 404, leaks: false });
    }
    const metrics = await request(stack.metricsUrl as string).get('/metrics');
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('http_request_duration_seconds');
  });

  it('counts handled events per consumer group in the services’ metrics', async () => {
    await request(stack.url).post('/api/auth/register').send({ email: 'metrics@example.com', name: 'Metric Person', password: 'lamp-desk-battery-42' });
    await stack.settle();
    const res = await request(stack.metricsUrl as string).get('/metrics');
    expect(res.text).toMatch(/bus_events_handled_total\{group="social",type="user.registered",outcome="handled"\} [1-9]/);
    expect(res.text).toContain('bus_event_lag_seconds_bucket{le="0.001",group="social",type="user.registered"}');
  });

  it('answers each invalid register field with a 400 listing it', async () => {
    const res = await request(stack.url).post('/api/auth/register').send({ email: 'nope', name: '', password: '1' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'name', 'password']);
  });

  it('refuses protected routes without a valid token at the gateway (401)', async () => {
    const none = await request(stack.url).get('/api/auth/me');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ success: false, message: 'Authentication required', code: 'UNAUTHORIZED' });
    const bad = await request(stack.url).get('/api/feed').set('Authorization', 'Bearer abc.def.ghi');
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false, message: 'Invalid or expired token', code: 'INVALID_TOKEN' });
  });

  it('answers a duplicate email with 409', async () => {
    const body = { email: 'dup@example.com', name: 'Dup', password: 'lamp-desk-battery-42' };
    expect((await request(stack.url).post('/api/auth/register').send(body)).status).toBe(201);
    const again = await request(stack.url).post('/api/auth/register').send(body);
    expect(again.status).toBe(409);
    expect(again.body.success).toBe(false);
  });

  it('answers unknown API paths with a 404 envelope and too large bodies with 413', async () => {
    const login = await request(stack.url).post('/api/auth/login').send({ email: 'dup@example.com', password: 'lamp-desk-battery-42' });
    const auth = `Bearer ${login.body.data.token}`;
    const unknown = await request(stack.url).get('/api/nothing-here').set('Authorization', auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Not found', code: 'NOT_FOUND' });
    const huge = await request(stack.url)
      .post('/api/auth/register')
      .send({ email: 'x@example.com', name: 'x'.repeat(2 * 1024 * 1024), password: 'lamp-desk-battery-42' });
    expect(huge.status).toBe(413);
    expect(huge.body.success).toBe(false);
  });
});

describe('gateway limits and faults', () => {
  const env = { JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', WEB_DIR: '/nonexistent' };
  let slow: Server;
  let slowUrl: string;

  beforeAll(async () => {
    // An upstream that never answers in time.
    slow = createServer((_req, res) => setTimeout(() => res.end('{}'), 2000).unref());
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((r) => slow.close(r)));

  it('rate limits login per address with 429 and Retry-After', async () => {
    const config = loadGatewayConfig({ ...env, RATE_LIMITS: 'on', RATE_LIMIT_LOGIN: '3/60' });
    const app = await createGatewayApp(config, { auth: 'http://127.0.0.1:9' });
    await app.init();
    const server = app.getHttpServer();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await request(server).post('/api/auth/login').send({ email: 'a@b.co', password: 'x' });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.body).toEqual({ success: false, message: 'Too many requests, please try again later', code: 'RATE_LIMITED' });
      }
    }
    expect(statuses).toEqual([503, 503, 503, 429]);
    await app.close();
  });

  it('answers 503 for a service that is down and 504 for one that is too slow', async () => {
    const config = loadGatewayConfig({ ...env, RATE_LIMITS: 'off', UPSTREAM_TIMEOUT_MS: '300' });
    const app = await createGatewayApp(config, { auth: 'http://127.0.0.1:9', social: slowUrl });
    await app.init();
    const server = app.getHttpServer();
    const down = await request(server).post('/api/auth/login').send({ email: 'a@b.co', password: 'x' });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ success: false, message: 'The auth service is unavailable', code: 'SERVICE_UNAVAILABLE' });

    const { JwtService } = await import('@nestjs/jwt');
    const token = new JwtService({ secret: TEST_JWT_SECRET }).sign({ sub: 'u1', username: 'u1' }, { expiresIn: 60 });
    const late = await request(server).get('/api/users/search?search=a').set('Authorization', `Bearer ${token}`);
    expect(late.status).toBe(504);
    expect(late.body).toEqual({ success: false, message: 'The social service did not answer in time', code: 'GATEWAY_TIMEOUT' });
    await app.close();
  });
});
