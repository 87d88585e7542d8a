import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Member {
  id: string;
  username: string;
  auth: string;
}

/** A 1x1 PNG. */
const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

describe('reviews and feed through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let a: Member;
  let b: Member;
  const api = () => request(stack.url);

  async function register(email: string, name: string): Promise<Member> {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, username: res.body.data.user.username, auth: `Bearer ${res.body.data.token}` };
  }

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    a = await register('ada@example.com', 'Ada Lovelace');
    b = await register('bora@example.com', 'Bora Aksoy');
    await stack.settle();
  });

  afterAll(() => stack.close());

  it("B follows A; A's review with an uploaded image leads B's feed; likes and comments count; unfollow removes it", async () => {
    const followed = await api().post(`/api/follows/users/${a.id}`).set('Authorization', b.auth);
    expect(followed.status).toBeLessThan(300);
    await stack.settle();

    // A uploads an image and creates a product with it, then reviews the product with another image.
    const upload = await api().post('/api/media').set('Authorization', a.auth).attach('file', PNG_1PX, 'photo.png');
    expect(upload.status).toBe(201);
    const imageUrl = upload.body.data.url as string;
    expect(imageUrl).toBe(`/api/media/${upload.body.data.id}`);
    const image = await api().get(imageUrl).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toContain('immutable');

    const tooBig = await api()
      .post('/api/media')
      .set('Authorization', a.auth)
      .attach('file', Buffer.concat([PNG_1PX, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG_1PX.length)]), 'big.png');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.success).toBe(false);

    const product = await api()
      .post('/api/products')
      .set('Authorization', a.auth)
      .send({ name: 'Portable Espresso Maker', brand: 'Wacaco', price: 59.9, category: 'Kitchen', image: imageUrl });
    expect(product.status).toBe(201);

    // B posts something older, so A's review must come first on its own merit.
    await api().post('/api/reviews').set('Authorization', b.auth).send({ content: 'Hello from Bora' });
    const review = await api()
      .post('/api/reviews')
      .set('Authorization', a.auth)
      .send({ product_id: product.body.data.id, rating: 5, title: 'Portable Espresso Maker', content: 'Crema on a mountain.', images: [imageUrl] });
    expect(review.status).toBe(201);
    const reviewId = review.body.data.id as string;
    await stack.settle();

    const feed = await api().get('/api/feed?page=1&limit=10').set('Authorization', b.auth);
    expect(feed.status).toBe(200);
    expect(feed.body.meta).toEqual({ total: 2, page: 1, limit: 10, totalPages: 1 });
    expect(feed.body.data[0]).toMatchObject({
      id: reviewId,
      rating: 5,
      images: [imageUrl],
      user: { id: a.id, username: a.username, display_name: 'Ada Lovelace' },
      product: { id: product.body.data.id, name: 'Portable Espresso Maker', image_url: imageUrl },
    });

    const liked = await api().post(`/api/likes/reviews/${reviewId}`).set('Authorization', b.auth);
    expect(liked.body.data).toEqual({ liked: true, like_count: 1 });
    const commented = await api()
      .post(`/api/reviews/${reviewId}/comments`)
      .set('Authorization', b.auth)
      .send({ content: 'Which grinder do you use?' });
    expect(commented.status).toBe(201);
    const again = await api().get('/api/feed').set('Authorization', b.auth);
    expect(again.body.data[0]).toMatchObject({ id: reviewId, like_count: 1, likes: 1, comment_count: 1, liked: true });

    const productNow = await api().get(`/api/products/${product.body.data.slug}`).set('Authorization', b.auth);
    expect(productNow.body.data).toMatchObject({ rating: 5, review_count: 1, user: { id: a.id, name: 'Ada Lovelace' } });

    const unfollowed = await api().delete(`/api/follows/users/${a.id}`).set('Authorization', b.auth);
    expect(unfollowed.status).toBeLessThan(300);
    await stack.settle();
    const after = await api().get('/api/feed').set('Authorization', b.auth);
    expect(after.body.data.map((r: { id: string }) => r.id)).not.toContain(reviewId);
    expect(after.body.meta.total).toBe(1);
  });

  it("C goes private: A, not approved, cannot see C's reviews; after C accepts A's request A can", async () => {
    const c = await register('cem@example.com', 'Cem Yildiz');
    await stack.settle();
    const settings = await api().put('/api/users/settings').set('Authorization', c.auth).send({ privacy_profile: 'private' });
    expect(settings.status).toBe(200);
    const review = await api().post('/api/reviews').set('Authorization', c.auth).send({ content: 'Only for my followers' });
    expect(review.status).toBe(201);
    const reviewId = review.body.data.id as string;
    await stack.settle();

    const hiddenList = await api().get(`/api/reviews?userId=${c.id}`).set('Authorization', a.auth);
    expect(hiddenList.status).toBe(200);
    expect(hiddenList.body.data).toEqual([]);
    expect(hiddenList.body.meta.total).toBe(0);
    const hiddenOne = await api().get(`/api/reviews/${reviewId}`).set('Authorization', a.auth);
    expect(hiddenOne.status).toBe(404);

    const requested = await api().post(`/api/follows/users/${c.id}`).set('Authorization', a.auth);
    expect(requested.body.data.status).toBe('pending');
    await stack.settle();
    expect((await api().get(`/api/reviews/${reviewId}`).set('Authorization', a.auth)).status).toBe(404);

    const accepted = await api().post(`/api/follows/requests/${a.id}/accept`).set('Authorization', c.auth);
    expect(accepted.status).toBe(200);
    await stack.settle();
    const list = await api().get(`/api/reviews?userId=${c.id}`).set('Authorization', a.auth);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([reviewId]);
    const one = await api().get(`/api/reviews/${reviewId}`).set('Authorization', a.auth);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: reviewId, user: { id: c.id } });
    const feed = await api().get('/api/feed').set('Authorization', a.auth);
    expect(feed.body.data[0]).toMatchObject({ id: reviewId });
  });
});
