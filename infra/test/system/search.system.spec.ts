import request from 'supertest';
import type { SearchResultsView } from '@app/contracts';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Session {
  id: string;
  auth: { Authorization: string };
}

/**
 * Issue 21 §5 through the gateway: GET /api/search joins products, people, reviews and squads,
 * folds Turkish letters and diacritics in every group, and never shows what the viewer may not see (a block
 * either way, a private account not followed, a mute).
 */
describe('one search through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Session;
  let burak: Session;
  let cem: Session;
  let deniz: Session;
  const reviews: Record<string, string> = {};

  const api = () => request(stack.url);
  const register = async (email: string, name: string): Promise<Session> => {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, auth: { Authorization: `Bearer ${res.body.data.token}` } };
  };
  const search = async (who: Session, q: string): Promise<SearchResultsView> => {
    const res = await api().get(`/api/search?q=${encodeURIComponent(q)}`).set(who.auth);
    expect(res.status).toBe(200);
    return res.body.data as SearchResultsView;
  };
  const reviewIds = async (who: Session, q: string) => (await search(who, q)).reviews.map((r) => r.id).sort();
  const post = async (who: Session, content: string) => {
    const res = await api().post('/api/reviews').set(who.auth).send({ title: 'Şemsiye', content });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    ayse = await register('ayse.search@example.com', 'Ayşe Arayan');
    burak = await register('burak.search@example.com', 'Burak Engel');
    cem = await register('cem.search@example.com', 'Cem Gizli');
    deniz = await register('deniz.search@example.com', 'Deniz Sessiz');
    await stack.settle();
    await api().post('/api/products').set(ayse.auth).send({ name: 'Rüzgar Şemsiyesi', category: 'Fashion', price: 25 }).expect(201);
    await api().post('/api/squads').set(ayse.auth).send({ name: 'Şemsiye Kulübü', description: 'Yağmurda', category: 'General' }).expect(201);
    reviews.ayse = await post(ayse, 'İstanbul yağmurunda dayanıklı');
    reviews.burak = await post(burak, 'Istanbul rüzgarında kırıldı');
    reviews.cem = await post(cem, 'ISTANBUL için iyi');
    reviews.deniz = await post(deniz, 'istanbul değil Ankara');
    await stack.settle();
  }, 30_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('answers the four groups, folding case, ş and İ', async () => {
    const all = await search(ayse, 'SEMSIYE');
    expect(all.reviews).toHaveLength(4);
    expect(Object.keys(all).sort()).toEqual(['products', 'reviews', 'squads', 'tags', 'users']);
    expect(await reviewIds(ayse, 'istanbul')).toEqual(Object.values(reviews).sort());
    expect(await reviewIds(ayse, 'İSTANBUL ruzgarinda')).toEqual([reviews.burak]);
    const products = await search(ayse, 'ruzgar');
    expect(products.products.map((p) => p.name)).toEqual(['Rüzgar Şemsiyesi']);
    expect((await search(ayse, 'Şemsiye')).squads.map((s) => s.name)).toEqual(['Şemsiye Kulübü']);
    expect((await search(ayse, 'Burak')).users.map((u) => u.id)).toEqual([burak.id]);
  });

  it('folds the people and squads groups too, still by first letters', async () => {
    const isik = await register('isik.search@example.com', 'Işık Yolcu');
    await api().post('/api/squads').set(isik.auth).send({ name: 'İstanbul Yürüyüşü', category: 'General' }).expect(201);
    await stack.settle();
    expect((await search(burak, 'ayse arayan')).users.map((u) => u.id)).toEqual([ayse.id]);
    expect((await search(ayse, 'ISIK')).users.map((u) => u.id)).toEqual([isik.id]);
    expect((await search(ayse, 'semsiye kulubu')).squads.map((s) => s.name)).toEqual(['Şemsiye Kulübü']);
    expect((await search(ayse, 'istanbul yuru')).squads.map((s) => s.name)).toEqual(['İstanbul Yürüyüşü']);
  });

  it('leaves out a blocked author both ways, a private account not followed, and a muted one', async () => {
    await api().post(`/api/users/${ayse.id}/block`).set(burak.auth).expect(200);
    await api().put('/api/users/settings').set(cem.auth).send({ privacy_profile: 'private' }).expect(200);
    await api().post(`/api/users/${deniz.id}/mute`).set(ayse.auth).expect(200);
    await stack.settle();
    expect(await reviewIds(ayse, 'istanbul')).toEqual([reviews.ayse]);
    expect((await search(ayse, 'Burak')).users).toEqual([]);
    expect((await search(burak, 'Ayşe')).users).toEqual([]);
    expect(await reviewIds(burak, 'istanbul')).toEqual([reviews.burak, reviews.deniz].sort());
    // The block and the mute concern Ayse and Burak only; Cem, private, still finds every public review.
    expect(await reviewIds(cem, 'istanbul')).toEqual(Object.values(reviews).sort());
  });

  it('refuses a missing, blank or over-long q with a field error', async () => {
    for (const q of ['', 'q=', `q=${'x'.repeat(101)}`, 'q=%20%20', 'q[$ne]=x']) {
      const res = await api().get(`/api/search?${q}`).set(ayse.auth);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(res.body)).toContain('q');
    }
  });

  it('needs a token', async () => {
    expect((await api().get('/api/search?q=istanbul')).status).toBe(401);
  });
});
