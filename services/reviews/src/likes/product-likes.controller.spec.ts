import { TestService } from '@app/testing';
import { makeProduct, member, Member, startReviews } from '../reviews.fixture';

describe('product likes (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let productId: string;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
    productId = (await makeProduct(svc, ayse)).id;
  });

  afterAll(() => svc.close());

  const toggle = (m: Member, id = productId) => svc.http().post(`/api/likes/products/${id}`).set(m.auth);
  const status = (m: Member, id = productId) => svc.http().get(`/api/likes/products/${id}/status`).set(m.auth);

  it('starts at 0 on a new product, liked false', async () => {
    const res = await svc.http().get(`/api/products/${productId}`).set(mehmet.auth);
    expect(res.body.data).toMatchObject({ like_count: 0, liked: false });
  });

  it('toggles on and off with {liked, like_count}; product replies carry both for the viewer', async () => {
    const on = await toggle(mehmet);
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ success: true, data: { liked: true, like_count: 1 } });
    expect((await status(mehmet)).body.data).toEqual({ liked: true, like_count: 1 });
    expect((await status(ayse)).body.data).toEqual({ liked: false, like_count: 1 });
    const asMehmet = await svc.http().get(`/api/products/${productId}`).set(mehmet.auth);
    expect(asMehmet.body.data).toMatchObject({ like_count: 1, liked: true });
    const listAsAyse = await svc.http().get('/api/products').set(ayse.auth);
    expect(listAsAyse.body.data[0]).toMatchObject({ id: productId, like_count: 1, liked: false });
    await svc.http().post(`/api/saved/products/${productId}`).set(mehmet.auth);
    const saved = await svc.http().get('/api/saved?type=products').set(mehmet.auth);
    expect(saved.body.data[0]).toMatchObject({ id: productId, like_count: 1, liked: true });
    const off = await toggle(mehmet);
    expect(off.body.data).toEqual({ liked: false, like_count: 0 });
    expect((await svc.http().get(`/api/products/${productId}`).set(mehmet.auth)).body.data).toMatchObject({ like_count: 0, liked: false });
  });

  it('answers an unknown product with 404', async () => {
    expect((await toggle(mehmet, 'nope')).body).toEqual({ success: false, message: 'Product not found', code: 'PRODUCT_NOT_FOUND' });
    expect((await toggle(mehmet, 'nope')).status).toBe(404);
    expect((await status(mehmet, 'nope')).status).toBe(404);
  });

  it('needs a token', async () => {
    expect((await svc.http().post(`/api/likes/products/${productId}`)).status).toBe(401);
  });

  it('stays exact under 50 concurrent toggles by different members', async () => {
    const target = (await makeProduct(svc, ayse, { name: 'Popular Kettle', category: 'Kitchen' })).id;
    const members = await Promise.all(Array.from({ length: 50 }, (_, i) => member(svc, `fan${i}`)));
    const replies = await Promise.all(members.map((m) => toggle(m, target)));
    expect(replies.every((r) => r.status === 200 && r.body.data.liked === true)).toBe(true);
    const counts = replies.map((r) => r.body.data.like_count as number).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await Promise.all(members.slice(0, 25).map((m) => toggle(m, target)));
    expect((await status(ayse, target)).body.data.like_count).toBe(25);
  });

  it('keeps one row and an exact count when one member toggles 50 times at once', async () => {
    const target = (await makeProduct(svc, ayse, { name: 'Hammered Pan', category: 'Kitchen' })).id;
    const replies = await Promise.all(Array.from({ length: 50 }, () => toggle(mehmet, target)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const s = (await status(mehmet, target)).body.data;
    expect(s.like_count).toBe(s.liked ? 1 : 0);
  });

  it("forgets a deleted product's likes", async () => {
    const target = (await makeProduct(svc, ayse, { name: 'Short Lived', category: 'Home' })).id;
    await toggle(mehmet, target);
    await svc.http().delete(`/api/products/${target}`).set(ayse.auth);
    expect((await status(mehmet, target)).status).toBe(404);
    const rows = await svc.store.collection({ name: 'product_likes', indexes: [] }).count({ product_id: target });
    expect(rows).toBe(0);
  });
});
