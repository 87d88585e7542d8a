import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Session {
  id: string;
  auth: { Authorization: string };
}

/**
 * Issue 21 §6–7 through the gateway: Ayse follows #Kahve without following anyone; Burak's tagged
 * review reaches her feed and the tag page, Cem's private one does not, a block takes Burak's away;
 * trending counts the tag; image descriptions come back as written.
 */
describe('hashtags and alt text through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Session;
  let burak: Session;
  let cem: Session;

  const api = () => request(stack.url);
  const register = async (email: string, name: string): Promise<Session> => {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, auth: { Authorization: `Bearer ${res.body.data.token}` } };
  };
  const contents = async (who: Session, path: string) => {
    const res = await api().get(path).set(who.auth);
    expect(res.status).toBe(200);
    return (res.body.data as { content: string }[]).map((r) => r.content);
  };
  const post = (who: Session, body: object) => api().post('/api/reviews').set(who.auth).send(body);

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    ayse = await register('ayse.tags@example.com', 'Ayse Tags');
    burak = await register('burak.tags@example.com', 'Burak Tags');
    cem = await register('cem.tags@example.com', 'Cem Tags');
    await api().put('/api/users/settings').set(cem.auth).send({ privacy_profile: 'private' }).expect(200);
    await stack.settle();
  }, 30_000);

  afterAll(() => stack?.close());

  it('follows a tag idempotently under any spelling and refuses a malformed one', async () => {
    for (const spelling of ['Kahve', 'KAHVE']) {
      const res = await api().post(`/api/tags/${spelling}/follow`).set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ tag: 'kahve', following: true });
    }
    expect((await api().get('/api/tags/kahve').set(ayse.auth)).body.data).toEqual({ tag: 'kahve', following: true });
    const bad = await api().post('/api/tags/a-b/follow').set(ayse.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
    expect((await api().get('/api/tags/kahve/reviews')).status).toBe(401);
  });

  it("brings a followed tag's reviews from members not followed into the feed and the tag page, under the privacy rules", async () => {
    await post(burak, { content: 'Sabah #KAHVE keyfi', rating: 4.5, has_spoilers: true }).expect(201);
    await post(cem, { content: 'Gizli #kahve' }).expect(201);
    await post(burak, { content: 'Etiketsiz' }).expect(201);
    await stack.settle();
    expect(await contents(ayse, '/api/feed')).toEqual(['Sabah #KAHVE keyfi']);
    expect(await contents(ayse, `/api/tags/${encodeURIComponent('Kahve')}/reviews`)).toEqual(['Sabah #KAHVE keyfi']);
    // Cem sees his own.
    expect(await contents(cem, '/api/tags/kahve/reviews')).toEqual(['Gizli #kahve', 'Sabah #KAHVE keyfi']);
  });

  it('ranks the tag in trending tags', async () => {
    const res = await api().get('/api/trending/tags').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ tag: 'kahve', reviews_this_week: 2, reviews_last_week: 0, change_percent: null });
  });

  it('a block takes the tagged review out of the feed and the tag page both ways; an unfollow of the tag empties the feed', async () => {
    await api().post(`/api/users/${ayse.id}/block`).set(burak.auth).expect(200);
    await stack.settle();
    expect(await contents(ayse, '/api/feed')).toEqual([]);
    expect(await contents(ayse, '/api/tags/kahve/reviews')).toEqual([]);
    await api().delete(`/api/users/${ayse.id}/block`).set(burak.auth).expect(200);
    await stack.settle();
    expect(await contents(ayse, '/api/feed')).toEqual(['Sabah #KAHVE keyfi']);
    const off = await api().delete('/api/tags/kahve/follow').set(ayse.auth);
    expect(off.body.data).toEqual({ tag: 'kahve', following: false });
    expect(await contents(ayse, '/api/feed')).toEqual([]);
  });

  it('keeps image descriptions on reviews and products, and refuses an overlong one with a field error', async () => {
    const review = await post(ayse, { content: 'Kupa', images: ['/api/media/x1'], image_alts: ['Kırmızı kupa'] }).expect(201);
    expect(review.body.data).toMatchObject({ images: ['/api/media/x1'], image_alts: ['Kırmızı kupa'] });
    const product = await api().post('/api/products').set(ayse.auth).send({ name: 'Kupa', category: 'Kitchen', price: 5, image: '/api/media/x2', image_alt: 'Beyaz kupa' });
    expect(product.body.data.image_alt).toBe('Beyaz kupa');
    const long = await post(ayse, { content: 'x', images: ['/api/media/x1'], image_alts: ['y'.repeat(301)] });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('image_alts');
  });
});
