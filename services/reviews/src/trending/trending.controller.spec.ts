import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, startReviews } from '../reviews.fixture';

describe('trending (HTTP)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startReviews();
  });

  afterAll(() => svc.close());

  it('ranks the categories reviewed this week', async () => {
    const owner = await member(svc, 'owner');
    const kettle = await makeProduct(svc, owner, { name: 'Kettle', category: 'Kitchen' });
    const mat = await makeProduct(svc, owner, { name: 'Mat', category: 'Fitness' });
    for (let i = 0; i < 3; i++) {
      const m = await member(svc, `k${i}`);
      await makeReview(svc, m, { product_id: kettle.id, rating: 4 });
    }
    await makeReview(svc, owner, { product_id: mat.id, rating: 5 });
    await makeReview(svc, owner, { content: 'No product: not a topic' });

    const res = await svc.http().get('/api/trending').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { topic: 'Kitchen', category: 'Kitchen', reviews_this_week: 3, reviews_last_week: 0, change_percent: null },
      { topic: 'Fitness', category: 'Fitness', reviews_this_week: 1, reviews_last_week: 0, change_percent: null },
    ]);
  });

  it('refuses unknown query parameters', async () => {
    const owner = await member(svc, 'strict');
    const res = await svc.http().get('/api/trending?limit=20').set(owner.auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'limit' })]);
  });
});
