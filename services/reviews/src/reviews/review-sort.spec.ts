import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('GET /reviews?productId=&sort= (product detail sort selector)', () => {
  let svc: TestService;
  let viewer: Member;
  let productId: string;

  beforeAll(async () => {
    svc = await startReviews();
    viewer = await member(svc, 'viewer');
    productId = (await makeProduct(svc, viewer)).id;
    // Posted in this order; two fives so ties show their order (newest first).
    for (const [name, rating] of [
      ['three', 3],
      ['fiveOld', 5],
      ['one', 1],
      ['fiveNew', 5],
    ] as const) {
      await makeReview(svc, await member(svc, name.toLowerCase()), { product_id: productId, rating, content: name });
    }
  });

  afterAll(() => svc.close());

  const contents = async (query: string) => {
    const res = await svc.http().get(`/api/reviews?productId=${productId}${query}`).set(viewer.auth);
    expect(res.status).toBe(200);
    return res.body.data.map((r: { content: string }) => r.content) as string[];
  };

  it('is newest first by default and with sort=recent', async () => {
    expect(await contents('')).toEqual(['fiveNew', 'one', 'fiveOld', 'three']);
    expect(await contents('&sort=recent')).toEqual(['fiveNew', 'one', 'fiveOld', 'three']);
  });

  it('orders by rating, highest first, ties newest first', async () => {
    expect(await contents('&sort=rating_desc')).toEqual(['fiveNew', 'fiveOld', 'three', 'one']);
  });

  it('orders by rating, lowest first, ties newest first', async () => {
    expect(await contents('&sort=rating_asc')).toEqual(['one', 'three', 'fiveNew', 'fiveOld']);
  });

  it('pages a sorted list without overlap', async () => {
    const pages = [await contents('&sort=rating_desc&limit=3&page=1'), await contents('&sort=rating_desc&limit=3&page=2')];
    expect(pages).toEqual([['fiveNew', 'fiveOld', 'three'], ['one']]);
  });

  it('refuses an unknown sort with 400', async () => {
    const res = await svc.http().get(`/api/reviews?productId=${productId}&sort=best`).set(viewer.auth);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('sort must be one of recent, rating_desc, rating_asc');
  });
});
