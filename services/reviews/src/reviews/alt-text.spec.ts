import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/** Issue 21 §7: a description per image of a review or product. */
describe('image descriptions (alt text)', () => {
  let svc: TestService;
  let ayse: Member;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
  });

  afterAll(() => svc.close());

  const post = (body: object) => svc.http().post('/api/reviews').set(ayse.auth).send({ content: 'x', ...body });

  it('stores one description per image and returns them in order, blank where none was given', async () => {
    const r = await makeReview(svc, ayse, { images: ['/api/media/a1', '/api/media/a2'], image_alts: ['Kırmızı kupa'] });
    expect(r).toMatchObject({ images: ['/api/media/a1', '/api/media/a2'], image_alts: ['Kırmızı kupa', ''] });
    const read = await svc.http().get(`/api/reviews/${r.id}`).set(ayse.auth);
    expect(read.body.data.image_alts).toEqual(['Kırmızı kupa', '']);
  });

  it('gives reviews without descriptions blank ones, and new images on an edit drop the old descriptions', async () => {
    const r = await makeReview(svc, ayse, { images: ['/api/media/b1'] });
    expect(r.image_alts).toEqual(['']);
    const withAlt = await svc.http().put(`/api/reviews/${r.id}`).set(ayse.auth).send({ images: ['/api/media/b1'], image_alts: ['Masa'] });
    expect(withAlt.body.data.image_alts).toEqual(['Masa']);
    const replaced = await svc.http().put(`/api/reviews/${r.id}`).set(ayse.auth).send({ images: ['/api/media/b2'] });
    expect(replaced.body.data.image_alts).toEqual(['']);
  });

  it('refuses a description over 300 characters, more descriptions than images, or descriptions without images', async () => {
    for (const body of [
      { images: ['/api/media/c1'], image_alts: ['x'.repeat(301)] },
      { images: ['/api/media/c1'], image_alts: ['a', 'b'] },
      { image_alts: ['a'] },
      { images: ['/api/media/c1'], image_alts: [3] },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('image_alts');
    }
  });

  it("keeps a product image's description, null when none, on the product and its cards", async () => {
    const plain = await makeProduct(svc, ayse, { name: 'Plain', image: '/api/media/p0' });
    expect(plain).toMatchObject({ image_alt: null });
    const p = await makeProduct(svc, ayse, { name: 'Kettle', image: '/api/media/p1', image_alt: 'Çelik kettle' });
    expect(p).toMatchObject({ image_alt: 'Çelik kettle' });
    const r = await makeReview(svc, ayse, { product_id: p.id, rating: 4 });
    expect(r.product).toMatchObject({ image_url: '/api/media/p1', image_alt: 'Çelik kettle' });
    const res = await svc.http().put(`/api/products/${p.id}`).set(ayse.auth).send({ image_alt: 'y'.repeat(301) });
    expect(res.status).toBe(400);
  });
});
