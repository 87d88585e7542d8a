import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('reviews (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let product: { id: string; slug: string };

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
    product = await makeProduct(svc, mehmet, { name: 'Gaming Monitor', image: '/api/media/mon1' });
  });

  afterAll(() => svc.close());

  const productOf = async (id: string) => (await svc.http().get(`/api/products/${id}`).set(ayse.auth)).body.data;

  it('creates a review with the spec shape, author and product cards, and announces it', async () => {
    const res = await svc
      .http()
      .post('/api/reviews')
      .set(ayse.auth)
      .send({
        product_id: product.id,
        rating: 4,
        title: 'Gaming Monitor',
        content: 'Crisp at 165 Hz.',
        images: ['/api/media/aaa111'],
        location: 'Izmir',
        date: '2024-05-01',
      });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      user_id: ayse.id,
      product_id: product.id,
      rating: 4,
      title: 'Gaming Monitor',
      content: 'Crisp at 165 Hz.',
      images: ['/api/media/aaa111'],
      location: 'Izmir',
      date: '2024-05-01',
      likes: 0,
      like_count: 0,
      comment_count: 0,
      edited: false,
      user: { id: ayse.id, username: 'ayse', display_name: 'Ayse', profile_image_url: null },
      product: { id: product.id, name: 'Gaming Monitor', image_url: '/api/media/mon1' },
    });
    expect(res.body.data.created_at).toEqual(res.body.data.updated_at);
    await svc.settle();
    expect(svc.emitted('review.created')).toContainEqual(
      expect.objectContaining({ reviewId: res.body.data.id, authorId: ayse.id, productName: 'Gaming Monitor', rating: 4 }),
    );
    expect(await productOf(product.id)).toMatchObject({ rating: 4, review_count: 1 });
  });

  it('refuses a second review of the same product with 409', async () => {
    const res = await svc.http().post('/api/reviews').set(ayse.auth).send({ product_id: product.id, rating: 5, content: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'You have already reviewed this product', code: 'ALREADY_REVIEWED' });
  });

  it('answers an unknown product with 404', async () => {
    const res = await svc.http().post('/api/reviews').set(ayse.auth).send({ product_id: 'nope', rating: 5, content: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Product not found');
  });

  it.each([
    ['rating', { product_id: 'p', content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['rating', { product_id: 'p', rating: 0, content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['rating', { product_id: 'p', rating: 6, content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['rating', { product_id: 'p', rating: 4.3, content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['rating', { product_id: 'p', rating: 5.5, content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['rating', { product_id: 'p', rating: '4', content: 'x' }, 'Geçerli bir puanlama (1-5 arası) zorunludur'],
    ['has_spoilers', { rating: 4, content: 'x', has_spoilers: 'yes' }, 'has_spoilers must be true or false'],
    ['content', { rating: 4, content: '   ' }, 'Review content is required'],
    ['content', { rating: 4, content: 'x'.repeat(5001) }, 'Review content must be at most 5000 characters'],
    ['images', { rating: 4, content: 'x', images: ['data:image/png;base64,AAA'] }, undefined],
    ['product_id', { rating: 4, content: 'x', product_id: { $ne: null } }, undefined],
    ['user_id', { rating: 4, content: 'x', user_id: 'someone' }, undefined],
  ])('refuses a bad %s (case %#) with a 400', async (field, body, message) => {
    const res = await svc.http().post('/api/reviews').set(ayse.auth).send(body);
    expect(res.status).toBe(400);
    const error = res.body.errors.find((e: { field: string }) => e.field === field);
    expect(error).toBeDefined();
    if (message) expect(error.messages).toContain(message);
  });

  it('accepts exactly 5000 characters', async () => {
    const res = await svc.http().post('/api/reviews').set(mehmet.auth).send({ content: 'y'.repeat(5000) });
    expect(res.status).toBe(201);
  });

  it('allows composer posts without a product, repeatedly, with no product chip and an optional rating', async () => {
    const a = await makeReview(svc, ayse, { content: 'Morning coffee thoughts', rating: 5 });
    const b = await makeReview(svc, ayse, { content: 'No stars today', product_id: null });
    expect(a).toMatchObject({ product_id: null, product: null, rating: 5 });
    expect(b).toMatchObject({ product_id: null, product: null, rating: null, title: '' });
  });

  it('lists by userId and/or productId, newest first, with meta', async () => {
    const byUser = await svc.http().get(`/api/reviews?userId=${ayse.id}&limit=2`).set(ayse.auth);
    expect(byUser.status).toBe(200);
    expect(byUser.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect(byUser.body.data[0].content).toBe('No stars today');
    const byProduct = await svc.http().get(`/api/reviews?productId=${product.id}`).set(ayse.auth);
    expect(byProduct.body.data.map((r: { user_id: string }) => r.user_id)).toEqual([ayse.id]);
    const both = await svc.http().get(`/api/reviews?productId=${product.id}&userId=${mehmet.id}`).set(ayse.auth);
    expect(both.body.meta.total).toBe(0);
    const odd = await svc.http().get('/api/reviews?userId[$ne]=x').set(ayse.auth);
    expect(odd.status).toBe(400);
  });

  it('lets only the author edit; an edit says so and moves the product rating by the delta', async () => {
    const list = await svc.http().get(`/api/reviews?productId=${product.id}`).set(ayse.auth);
    const id = list.body.data[0].id as string;
    expect((await svc.http().put(`/api/reviews/${id}`).set(mehmet.auth).send({ rating: 1 })).status).toBe(403);
    const res = await svc.http().put(`/api/reviews/${id}`).set(ayse.auth).send({ rating: 2, content: 'Dead pixel appeared.' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rating: 2, content: 'Dead pixel appeared.', edited: true });
    expect(await productOf(product.id)).toMatchObject({ rating: 2, review_count: 1 });
    expect((await svc.http().put(`/api/reviews/${id}`).set(ayse.auth).send({ rating: 9 })).status).toBe(400);
    // null is not "leave it": it is refused, and the review and the product aggregate stay as they were.
    for (const field of ['rating', 'title', 'content', 'images']) {
      const refused = await svc.http().put(`/api/reviews/${id}`).set(ayse.auth).send({ [field]: null });
      expect(refused.status).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect(await productOf(product.id)).toMatchObject({ rating: 2, review_count: 1 });
    const got = await svc.http().get(`/api/reviews/${id}`).set(mehmet.auth);
    expect(got.body.data).toMatchObject({ edited: true, rating: 2, content: 'Dead pixel appeared.' });
    expect(Array.isArray(got.body.data.images)).toBe(true);
  });

  it('lets only the author delete; the aggregate and the one-per-product rule follow', async () => {
    const list = await svc.http().get(`/api/reviews?productId=${product.id}`).set(ayse.auth);
    const id = list.body.data[0].id as string;
    expect((await svc.http().delete(`/api/reviews/${id}`).set(mehmet.auth)).status).toBe(403);
    expect((await svc.http().delete(`/api/reviews/${id}`).set(ayse.auth)).status).toBe(200);
    expect((await svc.http().get(`/api/reviews/${id}`).set(ayse.auth)).status).toBe(404);
    expect(await productOf(product.id)).toMatchObject({ rating: 0, review_count: 0 });
    await svc.settle();
    expect(svc.emitted('review.deleted')).toContainEqual({ reviewId: id, authorId: ayse.id, productId: product.id });
    // The slot is free again.
    await makeReview(svc, ayse, { product_id: product.id, rating: 3 });
    expect(await productOf(product.id)).toMatchObject({ rating: 3, review_count: 1 });
  });

  it('keeps the rating aggregate exact under 50 parallel reviews by different members', async () => {
    const target = await makeProduct(svc, mehmet, { name: 'Smart Watch', category: 'Electronics' });
    const members = await Promise.all(Array.from({ length: 50 }, (_, i) => member(svc, `rater${i}`)));
    const ratings = members.map((_, i) => (i % 5) + 1);
    const replies = await Promise.all(
      members.map((m, i) =>
        svc.http().post('/api/reviews').set(m.auth).send({ product_id: target.id, rating: ratings[i], content: `Take ${i}` }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    const expected = ratings.reduce((a, b) => a + b, 0) / 50;
    expect(await productOf(target.id)).toMatchObject({ review_count: 50, rating: Math.round(expected * 100) / 100 });

    // The same member racing with themselves still gets exactly one review in.
    const racer = members[0];
    const other = await makeProduct(svc, mehmet, { name: 'Yoga Block', category: 'Fitness' });
    const race = await Promise.all(
      Array.from({ length: 10 }, () =>
        svc.http().post('/api/reviews').set(racer.auth).send({ product_id: other.id, rating: 5, content: 'Mine' }),
      ),
    );
    expect(race.filter((r) => r.status === 201)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await productOf(other.id)).toMatchObject({ review_count: 1, rating: 5 });
  });
});
