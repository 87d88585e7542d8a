import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/** What any cache of feed cards must keep (docs/PERFORMANCE.md round 6): every change shows on the very next page, and no viewer's marks leak to another. */
describe('feed freshness', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let mod: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    const m = await member(svc, 'mod');
    mod = { ...m, auth: svc.authHeader({ id: m.id, username: m.username, role: 'moderator' }) };
    await svc.publish('moderation.role_changed', { userId: mod.id, role: 'moderator' });
    for (const reader of [mehmet, zeynep]) await svc.publish('follow.created', { followerId: reader.id, followeeId: ayse.id });
  });

  afterAll(() => svc.close());

  type Card = { id: string; content: string; like_count: number; comment_count: number; liked: boolean; saved: boolean; user: { display_name: string }; product: { name: string } | null };
  const feed = async (m: Member): Promise<Card[]> => {
    const res = await svc.http().get('/api/feed').set(m.auth);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const card = async (m: Member, id: string) => (await feed(m)).find((c) => c.id === id);

  it('overlays each viewer their own liked and saved marks on the shared card', async () => {
    const review = await makeReview(svc, ayse, { content: 'Shared card' });
    await svc.settle();
    expect(await card(zeynep, review.id)).toMatchObject({ liked: false, saved: false, like_count: 0 });
    expect((await svc.http().post(`/api/likes/reviews/${review.id}`).set(mehmet.auth)).status).toBe(200);
    expect((await svc.http().post(`/api/saved/reviews/${review.id}`).set(mehmet.auth)).status).toBe(200);
    expect(await card(mehmet, review.id)).toMatchObject({ liked: true, saved: true, like_count: 1 });
    expect(await card(zeynep, review.id)).toMatchObject({ liked: false, saved: false, like_count: 1 });
    expect(await card(mehmet, review.id)).toMatchObject({ liked: true, saved: true, like_count: 1 });
  });

  it('shows an edit, a comment and an unlike on the next page', async () => {
    const review = await makeReview(svc, ayse, { content: 'Before' });
    await svc.settle();
    expect(await card(zeynep, review.id)).toMatchObject({ content: 'Before', comment_count: 0 });
    expect((await svc.http().put(`/api/reviews/${review.id}`).set(ayse.auth).send({ content: 'After' })).status).toBe(200);
    expect((await card(zeynep, review.id))?.content).toBe('After');
    expect((await svc.http().post(`/api/reviews/${review.id}/comments`).set(mehmet.auth).send({ content: 'Nice' })).status).toBe(201);
    expect((await card(zeynep, review.id))?.comment_count).toBe(1);
    await svc.http().post(`/api/likes/reviews/${review.id}`).set(mehmet.auth);
    expect((await card(zeynep, review.id))?.like_count).toBe(1);
    await svc.http().post(`/api/likes/reviews/${review.id}`).set(mehmet.auth);
    expect((await card(zeynep, review.id))?.like_count).toBe(0);
  });

  it('drops a hidden and a deleted review from the next page', async () => {
    const hidden = await makeReview(svc, ayse, { content: 'To hide' });
    const deleted = await makeReview(svc, ayse, { content: 'To delete' });
    await svc.settle();
    expect(await card(zeynep, hidden.id)).toBeDefined();
    expect(await card(zeynep, deleted.id)).toBeDefined();
    expect((await svc.http().post(`/api/moderation/reviews/${hidden.id}/hide`).set(mod.auth).send({ reason: 'spam' })).status).toBe(200);
    expect((await svc.http().delete(`/api/reviews/${deleted.id}`).set(ayse.auth)).status).toBe(200);
    const ids = (await feed(zeynep)).map((c) => c.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(deleted.id);
  });

  it("shows the author's new name and a product's edit on the next page", async () => {
    const product = await makeProduct(svc, mehmet, { name: 'Old name' });
    const review = await makeReview(svc, ayse, { content: 'About a product', product_id: product.id, rating: 4 });
    await svc.settle();
    expect(await card(zeynep, review.id)).toMatchObject({ user: { display_name: 'Ayse' }, product: { name: 'Old name' } });
    expect((await svc.http().put(`/api/products/${product.id}`).set(mehmet.auth).send({ name: 'New name' })).status).toBe(200);
    await svc.publish('user.updated', { userId: ayse.id, username: 'ayse', display_name: 'Ayşe Y.', bio: '', profile_image_url: null });
    expect(await card(zeynep, review.id)).toMatchObject({ user: { display_name: 'Ayşe Y.' }, product: { name: 'New name' } });
  });
});
