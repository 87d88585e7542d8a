import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io } from 'socket.io-client';
import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 45 through the whole stack (the embedded profile, empty community, rate limits on): one
 * first admin, no look-alike members, nothing chosen by the client that should come from configuration.
 */

const PASSWORD = 'lamp-desk-battery-42';

describe('security findings of issue 45 (embedded stack)', () => {
  let stack: EmbeddedStack;
  let webDir: string;
  let member: { token: string; username: string };
  /** The one admin of §1, and a member who is not staff. */
  let admin: string;
  let plain: string;

  const register = (email: string, name: string) => request(stack.url).post('/api/auth/register').send({ email, name, password: PASSWORD });

  beforeAll(async () => {
    // A stand-in build, so the test does not depend on `npm run build:web` having run.
    webDir = mkdtempSync(join(tmpdir(), 'web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><html><head><title>SquadReviews</title></head><body><div id="root"></div></body></html>');
    stack = await startEmbeddedStack({
      port: 0,
      dataDir: ':memory:',
      seed: false,
      env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'on', RATE_LIMIT_REGISTER: '100/600', WEB_DIR: webDir },
    });
  });

  afterAll(async () => {
    await stack.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('§1: twenty sign-ups at once on an empty community make exactly one admin', async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => register(`first${i}@example.com`, `First ${i}`)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(replies.filter((r) => r.body.data.user.role === 'admin')).toHaveLength(1);
    const me = replies[0].body.data;
    member = { token: me.token, username: me.user.username };
    admin = replies.find((r) => r.body.data.user.role === 'admin')?.body.data.token;
    plain = replies.find((r) => r.body.data.user.role === 'member')?.body.data.token;
  });

  it('§2: look-alike addresses are the same member or refused, with a field error', async () => {
    expect((await register('ayse@demo.local', 'Ayşe')).status).toBe(201);
    const fullwidth = await register('ａyse@demo.local', 'Ayşe Too');
    expect([fullwidth.status, fullwidth.body.code]).toEqual([409, 'EMAIL_TAKEN']);
    for (const lookalike of ['ayşe@demo.local', 'ayse\u200b@demo.local']) {
      const res = await register(lookalike, 'Ayşe Too');
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
    }
  });

  it('§3: invisible and spoofing names are refused on sign-up, profile, product and squad', async () => {
    const auth = { Authorization: `Bearer ${member.token}` };
    const refusals = [
      await register('zw@example.com', '\u200B'),
      await request(stack.url).put('/api/users/profile').set(auth).send({ display_name: 'Ayşe\u202Eevil' }),
      await request(stack.url).put('/api/users/profile').set(auth).send({ display_name: 'Ay\u0000şe' }),
      await request(stack.url).post('/api/products').set(auth).send({ name: '\u200B\u200B', category: 'Home' }),
      await request(stack.url).post('/api/squads').set(auth).send({ name: '\u200B', description: 'x', category: 'General' }),
    ];
    const fields = (r: request.Response) => [r.status, (r.body.errors ?? []).map((e: { field: string }) => e.field)];
    expect(refusals.map(fields)).toEqual([
      [400, ['name']],
      [400, ['display_name']],
      [400, ['display_name']],
      [400, ['name']],
      [400, ['name']],
    ]);
  });

  it("§5: a profile's shared link names the configured origin, whatever Host the request carries", async () => {
    await stack.settle();
    const page = await request(stack.url).get(`/user/${member.username}`).set('Host', 'evil.example');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<meta property="og:url" content="${stack.url}/user/${member.username}" />`);
    expect(page.text).not.toContain('evil.example');
  });

  it('§6: a product with an outside picture is refused with a field error; an uploaded one is taken', async () => {
    const auth = { Authorization: `Bearer ${member.token}` };
    const outside = await request(stack.url).post('/api/products').set(auth).send({ name: 'Beacon', category: 'Home', image: 'https://evil.example/track.png' });
    expect(outside.status).toBe(400);
    expect(outside.body.errors.map((e: { field: string }) => e.field)).toEqual(['image']);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    const upload = await request(stack.url).post('/api/media').set(auth).attach('file', png, { filename: 'a.png', contentType: 'image/png' });
    expect(upload.status).toBe(201);
    const made = await request(stack.url).post('/api/products').set(auth).send({ name: 'Lamp', category: 'Home', image: upload.body.data.url });
    expect([made.status, made.body.data.image]).toEqual([201, upload.body.data.url]);
  });

  describe('§8, the smaller ones', () => {
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

    /** Whether a socket handshake is let in: the error's message when it is not. */
    function handshake(options: { auth?: object; query?: Record<string, string> }): Promise<string> {
      const socket = io(stack.url, { transports: ['websocket'], forceNew: true, reconnection: false, ...options });
      return new Promise((resolve) => {
        socket.once('connect', () => resolve('connected'));
        socket.once('connect_error', (err) => resolve(err.message));
      }).finally(() => socket.close()) as Promise<string>;
    }

    it('the socket takes its token from the handshake auth only, never from the URL (access logs)', async () => {
      expect(await handshake({ query: { token: plain } })).toBe('Authentication required');
      expect(await handshake({ auth: { token: plain } })).toBe('connected');
    });

    it("private replies are no-store; media and the revalidated pages keep their own caching", async () => {
      const private_ = ['/api/notifications', '/api/notifications/unread-count', '/api/messages/conversations', '/api/auth/me', '/api/users/settings', '/api/saved', '/api/users/me/export', '/api/users/blocked'];
      const seen = await Promise.all(private_.map(async (path) => {
        const res = await request(stack.url).get(path).set(bearer(plain));
        return [path, res.status, res.headers['cache-control']];
      }));
      expect(seen).toEqual(private_.map((path) => [path, 200, 'no-store']));
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
      const upload = await request(stack.url).post('/api/media').set(bearer(plain)).attach('file', png, { filename: 'a.png', contentType: 'image/png' });
      expect(upload.status).toBe(201);
      const media = await request(stack.url).get(upload.body.data.url);
      expect([media.status, media.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
      const feed = await request(stack.url).get('/api/feed').set(bearer(plain));
      expect([feed.status, feed.headers['cache-control']]).toEqual([200, 'private, no-cache']);
    });

    it('deleting the account without a password says the password is required', async () => {
      const res = await request(stack.url).delete('/api/users/me').set(bearer(plain)).send({});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Password is required', errors: [{ field: 'password', messages: ['Password is required'] }] });
      expect((await request(stack.url).get('/api/auth/me').set(bearer(plain))).status).toBe(200);
    });

    it('a JSON body sent as another type is the 415 envelope; the upload takes multipart only', async () => {
      const asText = await request(stack.url).put('/api/users/settings').set(bearer(plain)).set('Content-Type', 'text/plain').send('{"theme":"dark"}');
      expect([asText.status, asText.body]).toEqual([415, { success: false, message: 'The body must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' }]);
      const jsonUpload = await request(stack.url).post('/api/media').set(bearer(plain)).send({ file: 'a.png' });
      expect([jsonUpload.status, jsonUpload.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });

    it('headers over the limit get the 431 envelope', async () => {
      const res = await request(stack.url).get('/api/auth/me').set(bearer(plain)).set('X-Padding', 'a'.repeat(20 * 1024));
      expect([res.status, res.body]).toEqual([431, { success: false, message: 'Request header fields are too large', code: 'BAD_REQUEST' }]);
    });

    it('the list of every account answers staff only', async () => {
      const refused = await request(stack.url).get('/api/auth/users').set(bearer(plain));
      expect([refused.status, refused.body.code, refused.body.data]).toEqual([403, 'MODERATOR_ONLY', undefined]);
      const listed = await request(stack.url).get('/api/auth/users').set(bearer(admin));
      expect(listed.status).toBe(200);
      expect(listed.body.data.length).toBeGreaterThan(1);
    });
  });

  it('§7: fifteen wrong sign-ins from one connection meet the limit, whatever X-Forwarded-For each one claims', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await request(stack.url)
        .post('/api/auth/login')
        .set('X-Forwarded-For', `198.51.100.${i + 1}`)
        .send({ email: 'first0@example.com', password: 'wrong-password-1' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(5).fill(429));
  });
});
