import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('blocks (block.created / block.removed)', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let productId: string;
  let ayseReview: string;
  let boraReview: string;
  let cemReview: string;

  const get = (m: Member, path: string) => svc.http().get(`/api${path}`).set(m.auth);
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const like = (m: Member, id: string) => svc.http().post(`/api/likes/reviews/${id}`).set(m.auth);
  const comment = (m: Member, id: string, content: string) =>
    svc.http().post(`/api/reviews/${id}/comments`).set(m.auth).send({ content });

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem')];
    productId = (await makeProduct(svc, cem)).id;
    ayseReview = (await makeReview(svc, ayse, { product_id: productId, rating: 5, content: 'Ayse' })).id;
    boraReview = (await makeReview(svc, bora, { product_id: productId, rating: 2, content: 'Bora' })).id;
    cemReview = (await makeReview(svc, cem, { product_id: productId, rating: 4, content: 'Cem' })).id;
    await comment(bora, ayseReview, 'from Bora');
    await comment(cem, ayseReview, 'from Cem');
    await like(bora, ayseReview);
    await svc.publish('block.created', { blockerId: ayse.id, blockedId: bora.id });
    // A replayed event changes nothing.
    await svc.publish('block.created', { blockerId: ayse.id, blockedId: bora.id });
  });

  afterAll(() => svc.close());

  it("hides the blocker's reviews from the blocked member and the other way round", async () => {
    expect(ids(await get(bora, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview]);
    expect(ids(await get(ayse, `/reviews?productId=${productId}`))).toEqual([cemReview, ayseReview]);
    expect(ids(await get(bora, '/reviews'))).toEqual([cemReview, boraReview]);
    expect((await get(bora, `/reviews?userId=${ayse.id}`)).body.meta.total).toBe(0);
    expect((await get(ayse, `/reviews?userId=${bora.id}`)).body.meta.total).toBe(0);
    expect((await get(bora, `/reviews/${ayseReview}`)).status).toBe(404);
    expect((await get(ayse, `/reviews/${boraReview}`)).status).toBe(404);
    expect((await get(bora, `/reviews/${ayseReview}/comments`)).status).toBe(404);
  });

  it('leaves everyone else untouched', async () => {
    expect(ids(await get(cem, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview, ayseReview]);
    const thread = await get(cem, `/reviews/${ayseReview}/comments`);
    expect(thread.body.data.map((c: { content: string }) => c.content)).toEqual(['from Bora', 'from Cem']);
  });

  it("hides a blocked member's comments and like from the other", async () => {
    const thread = await get(ayse, `/reviews/${ayseReview}/comments`);
    expect(thread.body.data.map((c: { content: string }) => c.content)).toEqual(['from Cem']);
    expect(thread.body.meta.total).toBe(1);
    const likers = await get(ayse, `/likes/reviews/${ayseReview}/users`);
    expect(likers.body.data).toEqual([]);
    expect(likers.body.meta.total).toBe(0);
  });

  it('refuses liking and commenting across the block with 403, both ways', async () => {
    for (const [m, id] of [
      [bora, ayseReview],
      [ayse, boraReview],
    ] as const) {
      const liked = await like(m, id);
      expect(liked.status).toBe(403);
      expect(liked.body).toEqual({ success: false, message: 'You cannot interact with this user', code: 'USER_BLOCKED' });
      expect((await comment(m, id, 'hi')).status).toBe(403);
    }
    expect((await get(ayse, `/reviews/${ayseReview}`)).body.data.like_count).toBe(1);
  });

  it('does not change trending', async () => {
    const topics = (await get(bora, '/trending')).body.data;
    expect(topics[0]).toMatchObject({ category: 'Electronics', reviews_this_week: 3 });
  });

  it('shows everything again after block.removed', async () => {
    await svc.publish('block.removed', { blockerId: ayse.id, blockedId: bora.id });
    expect(ids(await get(bora, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview, ayseReview]);
    expect((await get(bora, `/reviews/${ayseReview}`)).status).toBe(200);
    expect((await like(ayse, boraReview)).status).toBe(200);
    expect((await get(ayse, `/reviews/${ayseReview}/comments`)).body.meta.total).toBe(2);
  });
});
