import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/** Issue 45 §6: a product's or a review's picture is an upload of this site, never an outside URL. */
describe('pictures are uploads only', () => {
  let svc: TestService;
  let ayse: Member;
  const OUTSIDE = ['https://evil.example/track.png', 'http://localhost:3000/api/media/m1', '//evil.example/x.png', '/api/media/../auth/me'];

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
  });

  afterAll(() => svc.close());

  const fieldsOf = (res: { body: { errors?: { field: string; messages: string[] }[] } }) => res.body.errors?.map((e) => e.field);

  it.each(OUTSIDE)('refuses %s as a new product\'s image with a field error', async (image) => {
    const res = await svc.http().post('/api/products').set(ayse.auth).send({ name: 'Kettle', category: 'Kitchen', image });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(['image']);
    expect(res.body.errors[0].messages[0]).toMatch(/^Image must be a picture uploaded here/);
  });

  it.each(OUTSIDE)('refuses %s among a review\'s images, on create and on edit', async (image) => {
    const created = await svc.http().post('/api/reviews').set(ayse.auth).send({ content: 'Nice', images: ['/api/media/ok1', image] });
    expect([created.status, fieldsOf(created)]).toEqual([400, ['images']]);
    const review = await makeReview(svc, ayse, { images: ['/api/media/ok2'] });
    const edited = await svc.http().put(`/api/reviews/${review.id}`).set(ayse.auth).send({ images: [image] });
    expect([edited.status, fieldsOf(edited)]).toEqual([400, ['images']]);
  });

  it("refuses an outside picture on a product's edit, and takes an upload's address", async () => {
    const product = await makeProduct(svc, ayse, { name: 'Teapot' });
    const outside = await svc.http().put(`/api/products/${product.id}`).set(ayse.auth).send({ image: 'https://evil.example/track.png' });
    expect([outside.status, fieldsOf(outside)]).toEqual([400, ['image']]);
    const uploaded = await svc.http().put(`/api/products/${product.id}`).set(ayse.auth).send({ image: '/api/media/abc_DEF-1' });
    expect([uploaded.status, uploaded.body.data.image]).toEqual([200, '/api/media/abc_DEF-1']);
  });
});
