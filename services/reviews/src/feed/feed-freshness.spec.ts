import { TestService } from '@app/testing';
import { mutesCollection } from '@app/platform';
import { contextStampsCollection } from '../audience/viewer-context.collection';
import { makeProduct, makeReview, member, Member, staffMember, startReviews } from '../reviews.fixture';
import { FeedService } from './feed.service';

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
    mod = await staffMember(svc, 'mod', 'moderator');
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

  describe("the viewer's own settings (kept in memory: issue 28 §2)", () => {
    let writer: Member;
    let reader: Member;

    beforeAll(async () => {
      [writer, reader] = [await member(svc, 'writer'), await member(svc, 'reader')];
      await svc.publish('follow.created', { followerId: reader.id, followeeId: writer.id });
      await feed(reader); // the reader's context and timeline are in memory from here on
    });

    it('a mute hides the author on the next page, and an unmute brings them back', async () => {
      const review = await makeReview(svc, writer, { content: 'Before the mute' });
      await svc.settle();
      expect(await card(reader, review.id)).toBeDefined();
      await svc.publish('mute.created', { muterId: reader.id, mutedId: writer.id });
      expect(await card(reader, review.id)).toBeUndefined();
      await svc.publish('mute.removed', { muterId: reader.id, mutedId: writer.id });
      expect(await card(reader, review.id)).toBeDefined();
    });

    it('a new keyword filter marks a review on the next page, and its removal unmarks it', async () => {
      const review = await makeReview(svc, writer, { content: 'All about durian season' });
      await svc.settle();
      expect((await card(reader, review.id)) as unknown).not.toHaveProperty('filtered_by');
      const created = await svc.http().post('/api/filters').set(reader.auth).send({ phrase: 'durian' });
      expect(created.status).toBe(201);
      expect(await card(reader, review.id)).toMatchObject({ filtered_by: 'durian' });
      expect((await svc.http().delete(`/api/filters/${created.body.data.id}`).set(reader.auth)).status).toBe(200);
      expect((await card(reader, review.id)) as unknown).not.toHaveProperty('filtered_by');
    });

    it("a followed tag brings a stranger's tagged review onto the next page, and unfollowing it takes it away", async () => {
      const stranger = await member(svc, 'stranger');
      const review = await makeReview(svc, stranger, { content: 'Fresh #matcha notes' });
      await svc.settle();
      expect(await card(reader, review.id)).toBeUndefined();
      expect((await svc.http().post('/api/tags/matcha/follow').set(reader.auth)).status).toBe(200);
      expect(await card(reader, review.id)).toBeDefined();
      expect((await svc.http().delete('/api/tags/matcha/follow').set(reader.auth)).status).toBe(200);
      expect(await card(reader, review.id)).toBeUndefined();
    });

    it("an unfollow takes the author's reviews off the next page, and a follow brings them back", async () => {
      const review = await makeReview(svc, writer, { content: 'Before the unfollow' });
      await svc.settle();
      expect(await card(reader, review.id)).toBeDefined();
      await svc.publish('follow.removed', { followerId: reader.id, followeeId: writer.id, wasPending: false });
      expect(await card(reader, review.id)).toBeUndefined();
      await svc.publish('follow.created', { followerId: reader.id, followeeId: writer.id });
      expect(await card(reader, review.id)).toBeDefined();
    });

    it("a block either way and an author's switch to friends-only take a followed tag's review off the next page, and undoing them brings it back", async () => {
      const author = await member(svc, 'tagger');
      const review = await makeReview(svc, author, { content: 'Notes on #oolong' });
      await svc.settle();
      expect((await svc.http().post('/api/tags/oolong/follow').set(reader.auth)).status).toBe(200);
      expect(await card(reader, review.id)).toBeDefined();
      await svc.publish('block.created', { blockerId: author.id, blockedId: reader.id });
      expect(await card(reader, review.id)).toBeUndefined();
      await svc.publish('block.removed', { blockerId: author.id, blockedId: reader.id });
      expect(await card(reader, review.id)).toBeDefined();
      const privacy = (privacy_profile: 'friends' | 'public') =>
        svc.publish('user.settings_updated', { userId: author.id, notification_email: true, notification_push: true, privacy_profile, theme: 'system' });
      await privacy('friends');
      expect(await card(reader, review.id)).toBeUndefined();
      await privacy('public');
      expect(await card(reader, review.id)).toBeDefined();
    });

    it('a change made through another replica (only the stored stamp moved) shows on the next page', async () => {
      const review = await makeReview(svc, writer, { content: 'Seen from elsewhere' });
      await svc.settle();
      expect(await card(reader, review.id)).toBeDefined();
      // Another replica handled the mute: this one's copy was never told, only the store changed.
      const store = svc.store;
      await store.collection(mutesCollection).insert({ _id: `${reader.id}:${writer.id}`, muter_id: reader.id, muted_id: writer.id });
      await store.collection(contextStampsCollection).updateOne({ _id: reader.id }, { $set: { stamp: 'elsewhere' } }, { upsert: true });
      await svc.app.get(FeedService).dropTimelines([reader.id]);
      expect(await card(reader, review.id)).toBeUndefined();
    });
  });
});
