// The gateway's own steps in front of a service (one stand-in service, no stack): what a
// forwarded /api request passes through, and what is answered before it reaches the service.
import { INestApplication } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createGatewayApp, loadGatewayConfig } from './gateway.app';
import { InProcessLink } from './link/in-process-link';

const SECRET = 'gateway-app-spec-secret-of-32-characters';
const ORIGIN = 'https://app.example';
const env = { NODE_ENV: 'test', JWT_SECRET: SECRET, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', WEB_DIR: '/nonexistent', RATE_LIMITS: 'off' };

// The stand-in service behind either adapter of the link: on its own HTTP server (undici), or
// handed each request in this process (the merged docs are always fetched over HTTP).
describe.each(['http', 'in-process'] as const)('the gateway in front of a service (%s link)', (kind) => {
  let service: Server;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders }[];
  let apps: INestApplication[];
  const bearer = `Bearer ${new JwtService({ secret: SECRET }).sign({ sub: 'u1', username: 'u1' }, { expiresIn: 60 })}`;

  function serve(req: IncomingMessage, res: ServerResponse): void {
    if (req.url === '/openapi.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ openapi: '3.0.0', info: { title: 'reviews', version: '1' }, paths: { '/api/feed': { get: { summary: 'feed' } } } }));
      return;
    }
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    req.resume();
    req.on('end', () => {
      // Media says how it is cached, as the reviews service's media route does.
      const caching = req.url?.startsWith('/api/media/') ? { 'cache-control': 'public, max-age=31536000, immutable' } : {};
      res.writeHead(200, { 'content-type': 'application/json', ...caching });
      res.end('{"success":true}');
    });
  }

  async function gateway(extra: Record<string, string> = {}) {
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const config = loadGatewayConfig({ ...env, ...extra });
    const link = kind === 'in-process' ? new InProcessLink({ reviews: serve, social: serve }, config.UPSTREAM_TIMEOUT_MS) : undefined;
    const app = await createGatewayApp(config, { reviews: url, social: url }, link);
    await app.init();
    apps.push(app);
    return app.getHttpServer();
  }

  beforeAll(async () => {
    service = createServer(serve);
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  });

  beforeEach(() => {
    seen = [];
    apps = [];
  });

  afterEach(async () => {
    for (const app of apps) await app.close();
  });

  afterAll(() => new Promise((resolve) => service.close(resolve)));

  it('forwards with the request id, security headers and CORS headers of the app origin', async () => {
    const server = await gateway({ APP_ORIGIN: ORIGIN });
    const res = await request(server).get('/api/feed?page=1').set('Authorization', bearer).set('Origin', ORIGIN).set('X-Request-Id', 'rid-1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.headers['x-request-id']).toBe('rid-1');
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(seen).toEqual([{ method: 'GET', url: '/api/feed?page=1', headers: expect.objectContaining({ 'x-request-id': 'rid-1', authorization: bearer }) }]);
  });

  it('gives a request without an id a new one, sent to the service and back', async () => {
    const server = await gateway();
    const res = await request(server).get('/api/feed').set('Authorization', bearer);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0].headers['x-request-id']).toBe(res.headers['x-request-id']);
  });

  it('answers a CORS preflight from the app origin itself', async () => {
    const server = await gateway({ APP_ORIGIN: ORIGIN });
    const res = await request(server)
      .options('/api/feed')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type');
    expect(res.headers['content-security-policy']).toBeDefined();
    expect(seen).toEqual([]);
  });

  it('without APP_ORIGIN sends no CORS headers, and a preflight needs a token like any request', async () => {
    const server = await gateway();
    const res = await request(server).options('/api/feed').set('Origin', ORIGIN).set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await request(server).get('/api/feed').set('Authorization', bearer).set('Origin', ORIGIN);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a missing token and a declared body over the limit before the service', async () => {
    const server = await gateway();
    const anonymous = await request(server).get('/api/feed');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, message: 'Authentication required', code: 'UNAUTHORIZED' });
    const big = await request(server).post('/api/reviews').set('Authorization', bearer).set('Content-Type', 'application/json').send(`"${'x'.repeat(1024 * 1024)}"`);
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ success: false, message: 'Request body is too large', code: 'PAYLOAD_TOO_LARGE' });
    expect(seen).toEqual([]);
  });

  it('answers the docs and unknown prefixes itself', async () => {
    const server = await gateway();
    const docs = await request(server).get('/api/docs/openapi.json');
    expect(docs.status).toBe(200);
    expect(Object.keys(docs.body.paths)).toEqual(['/api/feed']);
    const unknown = await request(server).get('/api/auth/me').set('Authorization', bearer);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Not found', code: 'NOT_FOUND' });
    expect(unknown.headers['content-security-policy']).toBeDefined();
    expect(seen).toEqual([]);
  });

  it('forwards a JSON body', async () => {
    const server = await gateway();
    const res = await request(server).post('/api/reviews').set('Authorization', bearer).send({ rating: 5 });
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/reviews', headers: { 'content-type': 'application/json', 'content-length': '12' } });
  });

  it('refuses JSON nested deeper than 32 levels with a 400 envelope before the service', async () => {
    const server = await gateway();
    for (const deep of ['['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(40) + '1' + '}'.repeat(40)]) {
      const res = await request(server).post('/api/reviews').set('Authorization', bearer).set('Content-Type', 'application/json').send(deep);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Request body is nested too deeply', code: 'BAD_REQUEST' });
    }
    expect(seen).toEqual([]);
    const shallow = await request(server).post('/api/reviews').set('Authorization', bearer).set('Content-Type', 'application/json').send('['.repeat(32) + ']'.repeat(32));
    expect(shallow.status).toBe(200);
    expect(seen).toHaveLength(1);
  });
  it('tags feed, profile and product pages per member and answers a repeat with 304, never across members', async () => {
    const server = await gateway();
    const other = `Bearer ${new JwtService({ secret: SECRET }).sign({ sub: 'u2', username: 'u2' }, { expiresIn: 60 })}`;
    for (const path of ['/api/feed?page=1', '/api/users/profile/someone', '/api/products/a-phone']) {
      const first = await request(server).get(path).set('Authorization', bearer);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.vary).toMatch(/Authorization/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const again = await request(server).get(path).set('Authorization', bearer).set('If-None-Match', first.headers.etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      // The same body for another member: another tag, so their copy is never the first member's.
      const theirs = await request(server).get(path).set('Authorization', other).set('If-None-Match', first.headers.etag);
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual({ success: true });
      expect(theirs.headers.etag).not.toBe(first.headers.etag);
    }
    const untagged = await request(server).get('/api/reviews').set('Authorization', bearer);
    expect(untagged.headers.etag).toBeUndefined();
  });

  it('answers a body in a type its route does not read with the 415 envelope, before the service (issue 45 §8)', async () => {
    const server = await gateway();
    const post = (path: string, type: string, body: string) => request(server).post(path).set('Authorization', bearer).set('Content-Type', type).send(body);
    const refusals = [
      await post('/api/reviews', 'text/plain', '{"rating":5}'),
      await post('/api/reviews', 'application/x-www-form-urlencoded', 'rating=5'),
      await post('/api/reviews', 'multipart/form-data; boundary=x', '--x--'),
      await post('/api/media', 'application/json', '{"file":"x.png"}'),
    ];
    for (const res of refusals) {
      expect([res.status, res.body]).toEqual([415, { success: false, message: expect.stringMatching(/^The body must be /), code: 'UNSUPPORTED_MEDIA_TYPE' }]);
    }
    expect(seen).toEqual([]);
    // What the routes read passes: JSON (any charset parameter), multipart on the upload, and no body at all.
    expect((await post('/api/reviews', 'application/json; charset=utf-8', '{"rating":5}')).status).toBe(200);
    expect((await post('/api/media', 'multipart/form-data; boundary=x', '--x--')).status).toBe(200);
    expect((await request(server).delete('/api/reviews/r1').set('Authorization', bearer)).status).toBe(200);
    expect(seen).toHaveLength(3);
  });

  it('answers headers over the limit with the 431 envelope and closes (issue 45 §8: not an envelope before)', async () => {
    const server = await gateway();
    const res = await request(server).get('/api/feed').set('Authorization', bearer).set('X-Padding', 'a'.repeat(20 * 1024));
    expect([res.status, res.headers['content-type'], res.headers.connection]).toEqual([431, 'application/json; charset=utf-8', 'close']);
    expect(res.body).toEqual({ success: false, message: 'Request header fields are too large', code: 'BAD_REQUEST' });
    expect(seen).toEqual([]);
  });

  it('sends every /api reply as no-store unless its route caches it (issue 45 §8: private replies had no Cache-Control)', async () => {
    const server = await gateway();
    const cachingOf = async (path: string, token?: string) => {
      const res = await (token ? request(server).get(path).set('Authorization', token) : request(server).get(path));
      return [path, res.status, res.headers['cache-control']];
    };
    expect([
      await cachingOf('/api/saved/products', bearer),
      await cachingOf('/api/users/settings', bearer),
      await cachingOf('/api/reviews', bearer),
      // The gateway's own answers: no such service here, no token.
      await cachingOf('/api/notifications', bearer),
      await cachingOf('/api/saved/products'),
      // What a route caches itself keeps its own header.
      await cachingOf('/api/media/m1'),
      await cachingOf('/api/products/a-phone', bearer),
    ]).toEqual([
      ['/api/saved/products', 200, 'no-store'],
      ['/api/users/settings', 200, 'no-store'],
      ['/api/reviews', 200, 'no-store'],
      ['/api/notifications', 404, 'no-store'],
      ['/api/saved/products', 401, 'no-store'],
      ['/api/media/m1', 200, 'public, max-age=31536000, immutable'],
      ['/api/products/a-phone', 200, 'private, no-cache'],
    ]);
  });
});
