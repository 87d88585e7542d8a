import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Session {
  id: string;
  auth: { Authorization: string };
}

/**
 * Issue 22 §1 through the gateway: Ayse mutes Burak, whom she follows. His reviews leave her feed,
 * the product page, her search and the tag's page, his comment her thread, his actions her
 * notifications; Burak sees no change; an unmute brings it all back.
 */
describe('mutes through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Session;
  let burak: Session;
  let productId: string;
  let ayseReview: string;
  let burakReview: string;

  const api = () => request(stack.url);
  const register = async (email: string, name: string): Promise<Session> => {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, auth: { Authorization: `Bearer ${res.body.data.token}` } };
  };
  const get = async (who: Session, path: string) => {
    const res = await api().get(path).set(who.auth);
    expect(res.status).toBe(200);
    return res.body as { data: Record<string, unknown>[]; meta: { total: number } };
  };
  const ids = (body: { data: Record<string, unknown>[] }) => body.data.map((r) => r.id);
  const searched = async (who: Session, q: string) =>
    ((await api().get(`/api/search?q=${q}`).set(who.auth).expect(200)).body.data.reviews as { id: string }[]).map((r) => r.id);
  /** What Ayse sees of Burak on each path (her bell counts his review, likes and comments). */
  const seen = async () => ({
    feed: ids(await get(ayse, '/api/feed')).includes(burakReview),
    productPage: ids(await get(ayse, `/api/reviews?productId=${productId}`)).includes(burakReview),
    search: (await searched(ayse, 'loud')).includes(burakReview),
    tag: ids(await get(ayse, '/api/tags/kettle/reviews')).includes(burakReview),
    comments: (await get(ayse, `/api/reviews/${ayseReview}/comments`)).data.some((c) => (c.user as { id: string }).id === burak.id),
    notificationsFromBurak: (await get(ayse, '/api/notifications')).data.filter((n) => (n.related_user as { id: string } | null)?.id === burak.id).length,
    profile: ids(await get(ayse, `/api/reviews?userId=${burak.id}`)).includes(burakReview),
  });
  /** Each round toggles his like and adds one comment: a new comment notification unless muted. */
  const burakActs = async () => {
    await api().post(`/api/likes/reviews/${ayseReview}`).set(burak.auth).expect(200);
    await api().post(`/api/reviews/${ayseReview}/comments`).set(burak.auth).send({ content: 'Agreed' }).expect(201);
    await stack.settle();
  };

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    ayse = await register('ayse.mute@example.com', 'Ayse Muter');
    burak = await register('burak.mute@example.com', 'Burak Muted');
    await stack.settle();
    await api().post(`/api/follows/users/${burak.id}`).set(ayse.auth).expect(200);
    productId = (await api().post('/api/products').set(ayse.auth).send({ name: 'Kettle', category: 'Kitchen', price: 25 })).body.data.id;
    ayseReview = (await api().post('/api/reviews').set(ayse.auth).send({ product_id: productId, rating: 5, content: 'Fast.' })).body.data.id;
    burakReview = (await api().post('/api/reviews').set(burak.auth).send({ product_id: productId, rating: 2, content: 'Loud. #kettle' })).body.data.id;
    await stack.settle();
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('shows Burak everywhere before the mute', async () => {
    await burakActs();
    expect(await seen()).toEqual({ feed: true, productPage: true, search: true, tag: true, comments: true, notificationsFromBurak: 3, profile: true });
  });

  it('hides him from Ayse after the mute (his profile still shows him), and Burak is not told', async () => {
    const before = await get(burak, '/api/notifications');
    const res = await api().post(`/api/users/${burak.id}/mute`).set(ayse.auth);
    expect(res.status).toBe(200);
    await stack.settle();
    expect((await get(ayse, '/api/users/mutes')).data.map((m) => m.id)).toEqual([burak.id]);
    await burakActs();
    // Earlier notifications stay (a mute stops new ones): still his review, like and comment from before.
    expect(await seen()).toEqual({ feed: false, productPage: false, search: false, tag: false, comments: false, notificationsFromBurak: 3, profile: true });
    // Burak's view of Ayse: no notification, no trace in her follow status.
    expect((await get(burak, '/api/notifications')).meta.total).toBe(before.meta.total);
    const status = await api().get(`/api/follows/status/${ayse.id}`).set(burak.auth);
    expect(status.text).not.toMatch(/mute/i);
    // Ayse's data export holds her mute; Burak's holds nothing of it.
    const exported = async (who: Session) => (await api().get('/api/follows/me/export').set(who.auth).expect(200)).body.data.mutes;
    expect(await exported(ayse)).toEqual([expect.objectContaining({ muter_id: ayse.id, muted_id: burak.id })]);
    expect(await exported(burak)).toEqual([]);
    expect(ids(await get(burak, `/api/reviews?productId=${productId}`))).toEqual(expect.arrayContaining([ayseReview, burakReview]));
    expect(await searched(burak, 'loud')).toEqual([burakReview]);
  });

  it('brings him back after the unmute', async () => {
    await api().delete(`/api/users/${burak.id}/mute`).set(ayse.auth).expect(200);
    await stack.settle();
    await burakActs();
    expect(await seen()).toEqual({ feed: true, productPage: true, search: true, tag: true, comments: true, notificationsFromBurak: 4, profile: true });
    expect((await get(ayse, '/api/users/mutes')).meta.total).toBe(0);
  });
});
