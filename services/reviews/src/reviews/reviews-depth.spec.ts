import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/** Issue 21 §1–3: half-star ratings, spoilers and edit history. */
describe('reviews with half stars, spoilers and history', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem')];
  });

  afterAll(() => svc.close());

  const productOf = async (id: string) => (await svc.http().get(`/api/products/${id}`).set(ayse.auth)).body.data;
  const put = (m: Member, id: string, body: object) => svc.http().put(`/api/reviews/${id}`).set(m.auth).send(body);
  const history = (m: Member, id: string, q = '') => svc.http().get(`/api/reviews/${id}/history${q}`).set(m.auth);
  const setPrivacy = (m: Member, privacy_profile: 'public' | 'private') =>
    svc.publish('user.settings_updated', { userId: m.id, notification_email: true, notification_push: true, privacy_profile, theme: 'system' });

  describe('half stars', () => {
    it('stores 0.5 steps and averages them exactly with whole ratings', async () => {
      const p = await makeProduct(svc, cem, { name: 'Half Lamp' });
      expect(await makeReview(svc, ayse, { product_id: p.id, rating: 4.5 })).toMatchObject({ rating: 4.5 });
      await makeReview(svc, bora, { product_id: p.id, rating: 3 });
      expect(await productOf(p.id)).toMatchObject({ rating: 3.75, review_count: 2 });
      const mine = await makeReview(svc, cem, { product_id: p.id, rating: 0.5 });
      expect(await productOf(p.id)).toMatchObject({ rating: 2.67, review_count: 3 });
      const edited = await put(cem, mine.id, { rating: 2.5 });
      expect(edited.body.data.rating).toBe(2.5);
      expect(await productOf(p.id)).toMatchObject({ rating: 3.33, review_count: 3 });
    });

    it.each([4.3, 0, 5.5, -0.5, 2.25])('refuses %p with a rating field error, on create and on edit', async (rating) => {
      const p = await makeProduct(svc, cem, { name: `Odd ${rating}` });
      const created = await svc.http().post('/api/reviews').set(ayse.auth).send({ product_id: p.id, rating, content: 'x' });
      expect(created.status).toBe(400);
      expect(created.body.errors).toEqual([{ field: 'rating', messages: ['Geçerli bir puanlama (1-5 arası) zorunludur'] }]);
      const mine = await makeReview(svc, ayse, { product_id: p.id, rating: 4 });
      const edited = await put(ayse, mine.id, { rating });
      expect(edited.status).toBe(400);
      expect(edited.body.errors.map((e: { field: string }) => e.field)).toEqual(['rating']);
      expect(await productOf(p.id)).toMatchObject({ rating: 4, review_count: 1 });
    });
  });

  describe('spoilers', () => {
    it('defaults to false, is set on create and changed on edit', async () => {
      const plain = await makeReview(svc, ayse, { content: 'No secrets' });
      expect(plain.has_spoilers).toBe(false);
      const secret = await makeReview(svc, ayse, { content: 'The butler did it', has_spoilers: true });
      expect(secret.has_spoilers).toBe(true);
      expect((await svc.http().get(`/api/reviews/${secret.id}`).set(bora.auth)).body.data.has_spoilers).toBe(true);
      const cleared = await put(ayse, secret.id, { has_spoilers: false });
      expect(cleared.body.data.has_spoilers).toBe(false);
      for (const bad of ['yes', 1, null]) {
        const res = await put(ayse, secret.id, { has_spoilers: bad });
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['has_spoilers']);
      }
    });
  });

  describe('edit history', () => {
    let reviewId: string;

    beforeAll(async () => {
      const p = await makeProduct(svc, cem, { name: 'History Kettle' });
      reviewId = (await makeReview(svc, bora, { product_id: p.id, rating: 3, content: 'First take' })).id;
    });

    it('is empty until the first edit', async () => {
      const res = await history(ayse, reviewId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: [], meta: { total: 0 } });
    });

    it('keeps each replaced version, newest first, with its times', async () => {
      const original = (await svc.http().get(`/api/reviews/${reviewId}`).set(bora.auth)).body.data;
      const first = await put(bora, reviewId, { content: 'Second take', rating: 3.5 });
      const second = await put(bora, reviewId, { content: 'Third take', has_spoilers: true });
      expect(second.body.data).toMatchObject({ content: 'Third take', rating: 3.5, has_spoilers: true, edited: true });
      const res = await history(ayse, reviewId);
      expect(res.body.meta).toMatchObject({ total: 2, page: 1 });
      expect(res.body.data).toEqual([
        {
          version: 2,
          content: 'Second take',
          rating: 3.5,
          title: 'History Kettle',
          has_spoilers: false,
          written_at: first.body.data.updated_at,
          edited_at: second.body.data.updated_at,
        },
        {
          version: 1,
          content: 'First take',
          rating: 3,
          title: 'History Kettle',
          has_spoilers: false,
          written_at: original.created_at,
          edited_at: first.body.data.updated_at,
        },
      ]);
      const paged = await history(ayse, reviewId, '?limit=1&page=2');
      expect(paged.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    });

    it('a refused edit keeps no version', async () => {
      expect((await put(ayse, reviewId, { content: 'Not mine' })).status).toBe(403);
      expect((await put(bora, reviewId, { rating: 4.3 })).status).toBe(400);
      expect((await history(bora, reviewId)).body.meta.total).toBe(2);
    });

    it('answers 404 across a block, either way, like GET /reviews/:id', async () => {
      await svc.publish('block.created', { blockerId: bora.id, blockedId: cem.id });
      await svc.settle();
      expect((await svc.http().get(`/api/reviews/${reviewId}`).set(cem.auth)).status).toBe(404);
      const res = await history(cem, reviewId);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'REVIEW_NOT_FOUND' });
      await svc.publish('block.removed', { blockerId: bora.id, blockedId: cem.id });
      await svc.settle();
      expect((await history(cem, reviewId)).status).toBe(200);
    });

    it('answers 404 for a private author to a non-follower; followers and the author still see it', async () => {
      await svc.publish('follow.created', { followerId: ayse.id, followeeId: bora.id });
      await setPrivacy(bora, 'private');
      await svc.settle();
      expect((await history(cem, reviewId)).status).toBe(404);
      expect((await history(ayse, reviewId)).body.meta.total).toBe(2);
      expect((await history(bora, reviewId)).body.meta.total).toBe(2);
      await setPrivacy(bora, 'public');
      await svc.settle();
    });

    it('answers 404 for an unknown review, and goes with a deleted one', async () => {
      expect((await history(ayse, 'no-such-review')).status).toBe(404);
      expect((await svc.http().delete(`/api/reviews/${reviewId}`).set(bora.auth)).status).toBe(200);
      expect((await history(bora, reviewId)).status).toBe(404);
    });

    it('refuses bad paging with a 400', async () => {
      const mine = await makeReview(svc, ayse, { content: 'Paged' });
      expect((await history(ayse, mine.id, '?limit=0')).status).toBe(400);
      expect((await history(ayse, mine.id, '?page[$gt]=1')).status).toBe(400);
    });
  });
});
