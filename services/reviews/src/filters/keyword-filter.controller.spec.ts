import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('keyword filters (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    await svc.publish('follow.created', { followerId: zeynep.id, followeeId: ayse.id });
  });

  afterAll(() => svc.close());

  const addFilter = (m: Member, body: Record<string, unknown>) => svc.http().post('/api/filters').set(m.auth).send(body);
  const feed = async (m: Member) => (await svc.http().get('/api/feed').set(m.auth)).body.data as { content: string; filtered_by?: string }[];
  const filteredIn = (items: { content: string; filtered_by?: string }[], content: string) => items.find((r) => r.content === content)?.filtered_by;

  it('creates, lists, reads and deletes the member’s own filters', async () => {
    const created = await addFilter(mehmet, { phrase: '  Spoiler  ', whole_word: true });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual(expect.objectContaining({ phrase: 'Spoiler', whole_word: true, expires_at: null, active: true }));
    const id = created.body.data.id;
    expect((await svc.http().get('/api/filters').set(mehmet.auth)).body.data.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await svc.http().get(`/api/filters/${id}`).set(mehmet.auth)).body.data.phrase).toBe('Spoiler');
    // Another member's filter does not exist for them.
    expect((await svc.http().get(`/api/filters/${id}`).set(ayse.auth)).status).toBe(404);
    expect((await svc.http().delete(`/api/filters/${id}`).set(ayse.auth)).status).toBe(404);
    expect((await svc.http().delete(`/api/filters/${id}`).set(mehmet.auth)).status).toBe(200);
    expect((await svc.http().get(`/api/filters/${id}`).set(mehmet.auth)).status).toBe(404);
  });

  it('refuses bad input with field errors', async () => {
    for (const body of [{}, { phrase: '   ' }, { phrase: 'x'.repeat(101) }, { phrase: 'a', whole_word: 'yes' }, { phrase: 'a', expires_at: 'soon' }, { phrase: 'a', user_id: 'x' }]) {
      const res = await addFilter(mehmet, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
  });

  it('marks matching reviews in the feed, Turkish letters and case folded', async () => {
    await makeReview(svc, ayse, { content: 'ÇOK ŞEKERLİ bir tatlı' });
    await makeReview(svc, ayse, { content: 'Tuzlu kraker' });
    await addFilter(zeynep, { phrase: 'şekerli' });
    const items = await feed(zeynep);
    expect(filteredIn(items, 'ÇOK ŞEKERLİ bir tatlı')).toBe('şekerli');
    expect(filteredIn(items, 'Tuzlu kraker')).toBeUndefined();
    // The author's own feed is not touched by another member's filter.
    expect(filteredIn(await feed(ayse), 'ÇOK ŞEKERLİ bir tatlı')).toBeUndefined();
  });

  it('marks matching reviews on a product page, whole words only when asked', async () => {
    const product = await makeProduct(svc, ayse, { name: 'Kulaklık' });
    await makeReview(svc, ayse, { product_id: product.id, rating: 4, content: 'kitaplar için iyi' });
    await addFilter(mehmet, { phrase: 'KİTAP', whole_word: true });
    const page = await svc.http().get(`/api/reviews?productId=${product.id}`).set(mehmet.auth);
    expect(page.body.data[0].filtered_by).toBeUndefined();
    await addFilter(mehmet, { phrase: 'kulaklik' });
    const again = await svc.http().get(`/api/reviews?productId=${product.id}`).set(mehmet.auth);
    expect(again.body.data[0].filtered_by).toBe('kulaklik');
  });

  it('stops applying an expired filter', async () => {
    await makeReview(svc, ayse, { content: 'Eski haber' });
    await addFilter(zeynep, { phrase: 'eski', expires_at: '2020-01-01T00:00:00Z' });
    expect(filteredIn(await feed(zeynep), 'Eski haber')).toBeUndefined();
    const listed = (await svc.http().get('/api/filters').set(zeynep.auth)).body.data;
    expect(listed.find((f: { phrase: string }) => f.phrase === 'eski').active).toBe(false);
  });

  it('needs a token', async () => {
    expect((await svc.http().get('/api/filters')).status).toBe(401);
  });
});
