import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/**
 * Issue 43 §3: a shared link shows what was shared. A visitor (no token) reads a product, its
 * reviews, a member's reviews and one review, by public authors only; nothing else.
 */
describe('what a visitor reads (issue 43 §3)', () => {
  let svc: TestService;
  let ayse: Member;
  let cem: Member;
  let product: { id: string; slug: string };
  let ayseReview: string;
  let cemReview: string;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, cem] = [await member(svc, 'ayse'), await member(svc, 'cem')];
    product = await makeProduct(svc, ayse, { name: 'Shared Kettle' });
    ayseReview = (await makeReview(svc, ayse, { product_id: product.id, rating: 5, content: 'Boils fast' })).id;
    cemReview = (await makeReview(svc, cem, { product_id: product.id, rating: 3, content: 'Private thoughts' })).id;
    await svc.publish('user.settings_updated', { userId: cem.id, notification_email: true, notification_push: true, privacy_profile: 'private', theme: 'system' });
    await svc.http().post(`/api/saved/products/${product.id}`).set(ayse.auth);
  });

  afterAll(() => svc.close());

  const visitor = (path: string) => svc.http().get(`/api${path}`);

  it('reads a product by slug or id with its real figures and no marks of its own', async () => {
    for (const key of [product.slug, product.id]) {
      const res = await visitor(`/products/${key}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expect.objectContaining({ id: product.id, review_count: 2, rating: 4, saved: false, liked: false }));
    }
    // the member who saved it still sees it saved with a token on the same route
    expect((await svc.http().get(`/api/products/${product.id}`).set(ayse.auth)).body.data.saved).toBe(true);
    expect((await visitor('/products/no-such-product')).status).toBe(404);
  });

  it('reads a product’s and a member’s reviews and one review, public authors only', async () => {
    const ofProduct = await visitor(`/reviews?productId=${product.id}`);
    expect(ofProduct.status).toBe(200);
    expect(ofProduct.body.data.map((r: { id: string; liked: boolean; saved: boolean }) => [r.id, r.liked, r.saved])).toEqual([[ayseReview, false, false]]);
    expect((await visitor(`/reviews?userId=${ayse.id}`)).body.data.map((r: { id: string }) => r.id)).toEqual([ayseReview]);
    expect((await visitor(`/reviews?userId=${cem.id}`)).body.data).toEqual([]);
    expect((await visitor(`/reviews/${ayseReview}`)).body.data.content).toBe('Boils fast');
    expect((await visitor(`/reviews/${cemReview}`)).status).toBe(404);
    expect((await visitor('/reviews/nope')).status).toBe(404);
  });

  it('refuses a token that does not stand rather than reading it as a visitor (the tab learns it is signed out)', async () => {
    for (const path of [`/api/products/${product.id}`, `/api/reviews?productId=${product.id}`, `/api/reviews/${ayseReview}`]) {
      expect((await svc.http().get(path).set('Authorization', 'Bearer not.a.token')).status).toBe(401);
      expect((await svc.http().get(path).set(ayse.auth)).status).toBe(200);
    }
  });

  it('keeps everything else behind the guard', async () => {
    expect((await visitor('/reviews')).status).toBe(401);
    expect((await visitor('/products')).status).toBe(401);
    expect((await visitor(`/reviews/${ayseReview}/history`)).status).toBe(401);
    expect((await visitor('/feed')).status).toBe(401);
    expect((await svc.http().post('/api/reviews').send({ content: 'x' })).status).toBe(401);
    expect((await svc.http().post(`/api/saved/products/${product.id}`)).status).toBe(401);
  });
});
