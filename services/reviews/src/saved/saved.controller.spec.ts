import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, staffMember, startReviews } from '../reviews.fixture';

describe('saved items (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
  });

  afterAll(() => svc.close());

  it('saves and unsaves products and reviews, idempotently, listed by type', async () => {
    const product = await makeProduct(svc, mehmet, { name: 'Hair Dryer', category: 'Beauty' });
    const review = await makeReview(svc, mehmet, { content: 'Loud but fast' });

    expect((await svc.http().post(`/api/saved/products/${product.id}`).set(ayse.auth)).body.data).toEqual({ saved: true });
    expect((await svc.http().post(`/api/saved/products/${product.id}`).set(ayse.auth)).status).toBe(200);
    expect((await svc.http().post(`/api/saved/reviews/${review.id}`).set(ayse.auth)).body.data).toEqual({ saved: true });

    const products = await svc.http().get('/api/saved?type=products').set(ayse.auth);
    expect(products.body.data.map((p: { name: string }) => p.name)).toEqual(['Hair Dryer']);
    expect(products.body.meta).toMatchObject({ total: 1, page: 1, type: 'products' });
    const reviews = await svc.http().get('/api/saved?type=reviews').set(ayse.auth);
    expect(reviews.body.data).toEqual([expect.objectContaining({ id: review.id, saved: true })]);
    expect((await svc.http().get('/api/saved').set(ayse.auth)).body.meta.type).toBe('products');
    expect((await svc.http().get('/api/saved').set(mehmet.auth)).body.data).toEqual([]);

    const off = await svc.http().delete(`/api/saved/products/${product.id}`).set(ayse.auth);
    expect(off.body.data).toEqual({ saved: false });
    expect((await svc.http().get('/api/saved?type=products').set(ayse.auth)).body.meta.total).toBe(0);
  });

  it('refuses unknown items and types', async () => {
    expect((await svc.http().post('/api/saved/products/nope').set(ayse.auth)).body).toEqual({
      success: false,
      message: 'Product not found',
      code: 'PRODUCT_NOT_FOUND',
    });
    expect((await svc.http().post('/api/saved/reviews/nope').set(ayse.auth)).status).toBe(404);
    expect((await svc.http().get('/api/saved?type=squads').set(ayse.auth)).status).toBe(400);
  });

  it('drops a saved review when it is deleted', async () => {
    const review = await makeReview(svc, mehmet, { content: 'Temporary' });
    await svc.http().post(`/api/saved/reviews/${review.id}`).set(ayse.auth);
    await svc.http().delete(`/api/reviews/${review.id}`).set(mehmet.auth);
    await svc.settle();
    const reviews = await svc.http().get('/api/saved?type=reviews').set(ayse.auth);
    expect(reviews.body.data.map((r: { id: string }) => r.id)).not.toContain(review.id);
  });

  it('leaves a review a moderator hid off its pages and out of the total, and lists it again when shown', async () => {
    const reader = await member(svc, 'reader');
    const mod = await staffMember(svc, 'moderator', 'moderator');
    const saved: string[] = [];
    for (const content of ['First', 'Second', 'Third']) {
      const review = await makeReview(svc, mehmet, { content });
      expect((await svc.http().post(`/api/saved/reviews/${review.id}`).set(reader.auth)).status).toBe(200);
      saved.unshift(review.id);
    }
    const page = async (no: number) => {
      const res = await svc.http().get(`/api/saved?type=reviews&page=${no}&limit=1`).set(reader.auth);
      return { ids: res.body.data.map((r: { id: string }) => r.id), total: res.body.meta.total };
    };
    expect((await svc.http().post(`/api/moderation/reviews/${saved[0]}/hide`).set(mod.auth).send({ reason: 'Spam' })).status).toBe(200);
    expect(await page(1)).toEqual({ ids: [saved[1]], total: 2 });
    expect(await page(2)).toEqual({ ids: [saved[2]], total: 2 });
    expect((await svc.http().post(`/api/moderation/reviews/${saved[0]}/unhide`).set(mod.auth).send({ reason: 'Fine' })).status).toBe(200);
    expect(await page(1)).toEqual({ ids: [saved[0]], total: 3 });
  });
});
