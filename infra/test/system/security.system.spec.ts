import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
