import request from 'supertest';
import { EXPORT_PARTS } from '../../../gateway/src/export/member-export';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 20 §4 through the gateway: GET /api/users/me/export joins every service's part of the
 * member's data; nothing of another member's private data, no hash or secret.
 */

const PASSWORD = 'quiet-harbour-lantern-7';

describe('data export (embedded stack)', () => {
  let stack: EmbeddedStack;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
  });
  afterAll(() => stack.close());

  const register = async (email: string, name: string) => {
    const res = await request(stack.url).post('/api/auth/register').send({ email, name, password: PASSWORD }).expect(201);
    return { id: res.body.data.user.id as string, auth: { Authorization: `Bearer ${res.body.data.token}` } };
  };
  async function ok<T>(auth: Record<string, string>, method: 'post' | 'get' | 'put', path: string, body?: object): Promise<T> {
    const res = await request(stack.url)[method](path).set(auth).send(body);
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text}`);
    return res.body.data as T;
  }

  it("gathers the member's account, profile, follows, reviews, comments, squads, messages and notifications, and nothing private of others", async () => {
    const ayse = await register('export.ayse@example.com', 'Ayse Export');
    const omer = await register('export.omer@example.com', 'Omer Other');
    await stack.settle();
    const product = await ok<{ id: string }>(ayse.auth, 'post', '/api/products', { name: 'Kettle', category: 'Kitchen', price: 25 });
    const review = await ok<{ id: string }>(ayse.auth, 'post', '/api/reviews', { product_id: product.id, rating: 5, title: 'Boils', content: 'Fast.' });
    await ok(ayse.auth, 'post', `/api/reviews/${review.id}/comments`, { content: 'Mine' });
    await ok(omer.auth, 'post', `/api/reviews/${review.id}/comments`, { content: 'Omer wrote this' });
    await ok(ayse.auth, 'post', '/api/squads', { name: 'Tea Time', category: 'Food' });
    await ok(omer.auth, 'post', `/api/follows/users/${ayse.id}`);
    await ok(ayse.auth, 'post', `/api/follows/users/${omer.id}`);
    await stack.settle();
    const conversation = await ok<{ id: string }>(ayse.auth, 'post', '/api/messages/conversations', { memberIds: [omer.id] });
    await ok(ayse.auth, 'post', `/api/messages/conversations/${conversation.id}/messages`, { content: 'my words' });
    await ok(omer.auth, 'post', `/api/messages/conversations/${conversation.id}/messages`, { content: 'omer private words' });
    await stack.settle();

    const res = await request(stack.url).get('/api/users/me/export').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const doc = res.body.data;
    // no language at sign-up: the spec's default; then the export carries the one chosen in Settings
    expect(doc.auth.account).toMatchObject({ id: ayse.id, email: 'export.ayse@example.com', language: 'en' });
    expect(doc.social.profile[0].settings.language).toBe('en');
    await ok(ayse.auth, 'put', '/api/users/settings', { language: 'tr' });
    await stack.settle();
    const again = (await request(stack.url).get('/api/users/me/export').set(ayse.auth)).body.data;
    expect(again.auth.account.language).toBe('tr');
    expect(again.social.profile[0].settings.language).toBe('tr');
    expect(doc.auth.two_factor).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect(doc.social.profile).toEqual([expect.objectContaining({ id: ayse.id, settings: expect.any(Object) })]);
    expect(doc.social.follows).toHaveLength(2);
    expect(doc.reviews.reviews).toEqual([expect.objectContaining({ id: review.id, title: 'Boils' })]);
    expect(doc.reviews.comments.map((c: { content: string }) => c.content)).toEqual(['Mine']);
    expect(doc.reviews.products).toHaveLength(1);
    expect(doc.squads.squads_created).toHaveLength(1);
    expect(doc.squads.memberships).toEqual([expect.objectContaining({ role: 'admin' })]);
    // The one-to-one and the squad's chat.
    expect(doc.messaging.conversations).toEqual(expect.arrayContaining([expect.objectContaining({ id: conversation.id }), expect.objectContaining({ name: 'Tea Time' })]));
    expect(doc.messaging.messages_sent.map((m: { content: string }) => m.content)).toEqual(['my words']);
    expect(doc.notifications.notifications.length).toBeGreaterThan(0);

    const text = res.text.toLowerCase();
    for (const secret of ['password', 'hash', 'secret', '"recovery_codes"', 'omer private words', 'export.omer@example.com', 'omer wrote this']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/\$2[aby]\$\d\d\$/);
  });

  it('needs a token, at the gateway and for every part', async () => {
    for (const path of ['/api/users/me/export', ...Object.values(EXPORT_PARTS)]) {
      const res = await request(stack.url).get(path);
      expect([path, res.status, res.body.success]).toEqual([path, 401, false]);
    }
  });
});
