import { INestApplication } from '@nestjs/common';
import pino from 'pino';
import request from 'supertest';
import { httpDuration } from '@app/platform';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 28 §1 and §3: the embedded stack's gateway reaches the services through the in-process
 * link; a second gateway over the same services reaches them over HTTP (undici), as across
 * processes. Same data behind both, so every reply must be the same: status, headers, body,
 * ETag and 304, limits (413), envelopes, a stopped service's 503. Through the in-process link a
 * request is one log line and one duration observation (the gateway's); over HTTP each hop has
 * its own, as before. (504 through both adapters: gateway/src/proxy/service-proxy.spec.ts.)
 */

const SECRET = 'link-system-spec-secret-of-32-characters!';
/** A 1x1 PNG. */
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

type Server = Parameters<typeof request>[0];

/** What a client sees of a reply, less the clock. */
function seen(res: request.Response) {
  const { date: _date, ...headers } = res.headers as Record<string, string>;
  return { status: res.status, headers, body: res.body as unknown, text: res.text };
}

/** A log line as pino was asked to write it: the logger's bindings (its service) and the object. */
interface Line {
  bindings: string;
  obj: { req?: { id?: string } } | null;
}

/**
 * Every log line while the suite runs, taken at pino's write step (kept here instead of printed:
 * the stacks log at debug level).
 */
const lines: Line[] = [];
const restore: (() => void)[] = [];

function captureLogs(): void {
  const { writeSym, chindingsSym } = jest.requireActual<{ writeSym: symbol; chindingsSym: symbol }>('pino/lib/symbols');
  let proto = Object.getPrototypeOf(pino({ level: 'silent' })) as Record<symbol, unknown>;
  while (!Object.prototype.hasOwnProperty.call(proto, writeSym)) proto = Object.getPrototypeOf(proto) as Record<symbol, unknown>;
  const original = proto[writeSym];
  proto[writeSym] = function (this: Record<symbol, unknown>, obj: Line['obj']) {
    lines.push({ bindings: String(this[chindingsSym]), obj });
  };
  restore.push(() => (proto[writeSym] = original));
}

/** The services whose loggers wrote a line about request `id` while `run` ran. */
async function linesAbout(id: string, run: () => Promise<void>): Promise<string[]> {
  const from = lines.length;
  await run();
  // A request's line is written when its response closes, just after the client has it.
  await new Promise((r) => setTimeout(r, 100));
  return lines
    .slice(from)
    .filter((line) => line.obj?.req?.id === id)
    .map((line) => /"service":"([^"]+)"/.exec(line.bindings)?.[1] ?? '?');
}

async function observations(service: string): Promise<number> {
  const metric = await httpDuration.get();
  return metric.values.filter((v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.service === service).reduce((sum, v) => sum + v.value, 0);
}

describe('the link: in-process and HTTP give the same replies (embedded stack, two gateways)', () => {
  let stack: EmbeddedStack;
  let overHttp: INestApplication;
  let inProcessServer: Server;
  let httpServer: Server;
  let auth: string;
  const savedSecret = process.env.JWT_SECRET;

  beforeAll(async () => {
    process.env.JWT_SECRET = SECRET;
    captureLogs();
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'debug', RATE_LIMITS: 'off' } });
    // The same origin as the stack's gateway (its APP_ORIGIN is its address since issue 45 §5): the same CORS headers.
    overHttp = await createGatewayApp(
      loadGatewayConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, LOG_LEVEL: 'debug', RATE_LIMITS: 'off', WEB_DIR: '/nonexistent', APP_ORIGIN: stack.url }),
      stack.serviceUrls,
    );
    await overHttp.init();
    inProcessServer = stack.url;
    httpServer = overHttp.getHttpServer();

    {
      const reg = await request(stack.url).post('/api/auth/register').send({ email: 'link@example.com', name: 'Link Person', password: 'lamp-desk-battery-42' });
      expect(reg.status).toBe(201);
      auth = `Bearer ${reg.body.data.token}`;
      const other = await request(stack.url).post('/api/auth/register').send({ email: 'followed@example.com', name: 'Followed Person', password: 'lamp-desk-battery-42' });
      await stack.settle();
      await request(stack.url).post(`/api/follows/users/${other.body.data.user.id}`).set('Authorization', auth);
      const product = await request(stack.url).post('/api/products').set('Authorization', `Bearer ${other.body.data.token}`).send({ name: 'Link Lamp', brand: 'Wire', price: 20, category: 'Home' });
      await request(stack.url).post('/api/reviews').set('Authorization', `Bearer ${other.body.data.token}`).send({ product_id: product.body.data.id, rating: 4, title: 'Bright', content: 'A lamp that links.' });
      await stack.settle();
    }
  });

  afterAll(async () => {
    await overHttp?.close();
    await stack?.close();
    for (const undo of restore) undo();
    process.env.JWT_SECRET = savedSecret;
  });

  /** The same request through both gateways: the replies, in-process first. */
  async function both(make: (server: Server) => request.Test): Promise<[ReturnType<typeof seen>, ReturnType<typeof seen>]> {
    const inProcess = seen(await make(inProcessServer));
    const http = seen(await make(httpServer));
    return [inProcess, http];
  }

  it('reads: the same status, headers and body; the same ETag, and 304 for it', async () => {
    const [feed, feedHttp] = await both((s) => request(s).get('/api/feed?page=1').set('Authorization', auth).set('X-Request-Id', 'feed-1'));
    expect(feed.status).toBe(200);
    expect((feed.body as { data: unknown[] }).data).toHaveLength(1);
    expect(feed.headers.etag).toMatch(/^W\/"/);
    expect(feed).toEqual(feedHttp);

    const [again, againHttp] = await both((s) => request(s).get('/api/feed?page=1').set('Authorization', auth).set('X-Request-Id', 'feed-2').set('If-None-Match', feed.headers.etag));
    expect(again.status).toBe(304);
    expect(again).toEqual(againHttp);

    for (const path of ['/api/products?search=lamp', '/api/products/no-such-product', '/api/users/search?search=link', '/api/notifications/unread-count', '/api/messages/conversations']) {
      const [inProcess, http] = await both((s) => request(s).get(path).set('Authorization', auth).set('X-Request-Id', 'read'));
      expect({ path, ...inProcess }).toEqual({ path, ...http });
    }
    const [head, headHttp] = await both((s) => request(s).head('/api/products?search=lamp').set('Authorization', auth).set('X-Request-Id', 'head'));
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    expect(head).toEqual(headHttp);
  });

  it('bad input and limits: the same 4xx envelopes (field errors, 413 from the service and from the gateway, 401)', async () => {
    const cases: ((s: Server) => request.Test)[] = [
      (s) => request(s).post('/api/reviews').set('Authorization', auth).send({ rating: 9, content: '' }),
      (s) => request(s).get('/api/products?page=0&unknown=1').set('Authorization', auth),
      // Above the reviews service's JSON limit (256 kB), under the gateway's (1 MB): the service's 413.
      (s) => request(s).post('/api/reviews').set('Authorization', auth).send({ content: 'x'.repeat(300 * 1024) }),
      // Above the gateway's: refused before the link.
      (s) => request(s).post('/api/reviews').set('Authorization', auth).send({ content: 'x'.repeat(1100 * 1024) }),
      // A streamed multipart upload over the media limit: the service's 413 while the body streams in.
      (s) => request(s).post('/api/media').set('Authorization', auth).attach('file', Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG_1PX.length)]), 'big.png'),
      (s) => request(s).post('/api/auth/login').send({ email: 'link@example.com', password: 'not-the-password' }),
      (s) => request(s).post('/api/reviews').set('Authorization', auth).set('Content-Type', 'application/json').send('{"content": '),
      // The upload route given JSON: the gateway's 415 before either link (issue 45 §8); given nothing: taken whole
      // in process (no form), answered as over HTTP.
      (s) => request(s).post('/api/media').set('Authorization', auth).send({ file: 'photo.png' }),
      (s) => request(s).post('/api/media').set('Authorization', auth),
    ];
    const statuses: number[] = [];
    for (const make of cases) {
      const [inProcess, http] = await both((s) => make(s).set('X-Request-Id', 'bad'));
      statuses.push(inProcess.status);
      expect(inProcess).toEqual(http);
    }
    expect(statuses).toEqual([400, 400, 413, 413, 413, 401, 400, 415, 400]);
  });

  it('an upload streams through either link and is served back the same', async () => {
    const [upload, uploadHttp] = await both((s) => request(s).post('/api/media').set('Authorization', auth).attach('file', PNG_1PX, 'photo.png'));
    expect(upload.status).toBe(201);
    expect(uploadHttp.status).toBe(201);
    const url = (upload.body as { data: { url: string } }).data.url;
    const [image, imageHttp] = await both((s) => request(s).get(url).set('X-Request-Id', 'img').buffer(true));
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image).toEqual(imageHttp);
  });

  it('in-process: one log line and one duration observation per request (the gateway’s); over HTTP one per hop', async () => {
    const reviewsBefore = await observations('reviews');
    const gatewayBefore = await observations('gateway');
    const linked = await linesAbout('one-line-in-process', async () => {
      expect((await request(inProcessServer).get('/api/feed').set('Authorization', auth).set('X-Request-Id', 'one-line-in-process')).status).toBe(200);
    });
    expect(linked).toEqual(['gateway']);
    expect(await observations('reviews')).toBe(reviewsBefore);
    expect(await observations('gateway')).toBe(gatewayBefore + 1);

    const hops = await linesAbout('one-line-per-hop', async () => {
      expect((await request(httpServer).get('/api/feed').set('Authorization', auth).set('X-Request-Id', 'one-line-per-hop')).status).toBe(200);
    });
    expect(hops.sort()).toEqual(['gateway', 'reviews']);
    expect(await observations('reviews')).toBe(reviewsBefore + 1);
  });

  it('a client cannot switch a service’s own logging off: a request straight to the service is logged', async () => {
    const straight = await linesAbout('straight-to-service', async () => {
      await request(stack.serviceUrls.reviews as string).get('/api/feed').set('Authorization', auth).set('X-Request-Id', 'straight-to-service');
    });
    expect(straight).toEqual(['reviews']);
  });

  it('every JSON reply over 1.4 KB goes out compressed through both, tagged or not, the gateway’s own included (issue 43 §5)', async () => {
    for (let i = 0; i < 20; i++) {
      const made = await request(stack.url).post('/api/products').set('Authorization', auth).send({ name: `Compressed kettle ${i}`, brand: 'Zip', price: 30 + i, category: 'Home' });
      expect(made.status).toBe(201);
    }
    const list = '/api/products?page=1&limit=20';
    for (const server of [inProcessServer, httpServer]) {
      const plain = await request(server).get(list).set('Authorization', auth).set('Accept-Encoding', 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBeGreaterThan(1400);
      const gzip = await request(server).get(list).set('Authorization', auth).set('Accept-Encoding', 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
      expect(gzip.body).toEqual(plain.body);
      // superagent decodes brotli itself: the header and the length on the wire say what was sent
      const br = await request(server).get(list).set('Authorization', auth).set('Accept-Encoding', 'br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(Number(br.headers['content-length'])).toBeLessThan(Number(plain.headers['content-length']) / 3);
      expect(br.body).toEqual(plain.body);
      // the gateway's own merged search, and a reply under the threshold that is not worth it
      const search = await request(server).get('/api/search?q=kettle').set('Authorization', auth).set('Accept-Encoding', 'gzip');
      expect(search.status).toBe(200);
      expect(search.headers['content-encoding']).toBe('gzip');
      const small = await request(server).get('/api/notifications/unread-count').set('Authorization', auth).set('Accept-Encoding', 'gzip');
      expect(small.headers['content-encoding']).toBeUndefined();
    }
  });

  it('a stopped service answers the same 503 through both, the others keep working, and it comes back', async () => {
    await stack.stopService('reviews');
    try {
      const [down, downHttp] = await both((s) => request(s).get('/api/feed').set('Authorization', auth).set('X-Request-Id', 'down'));
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ success: false, message: 'The reviews service is unavailable', code: 'SERVICE_UNAVAILABLE' });
      expect(down).toEqual(downHttp);
      const [me, meHttp] = await both((s) => request(s).get('/api/auth/me').set('Authorization', auth).set('X-Request-Id', 'me'));
      expect(me.status).toBe(200);
      expect(me).toEqual(meHttp);
    } finally {
      await stack.restartService('reviews');
    }
    const [back, backHttp] = await both((s) => request(s).get('/api/feed').set('Authorization', auth).set('X-Request-Id', 'back'));
    expect(back.status).toBe(200);
    expect(back).toEqual(backHttp);
  });
});
