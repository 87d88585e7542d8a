import { TestService } from '@app/testing';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';

/** Issue 21 §6: a tag's reviews, following tags, followed tags in the feed, trending tags. */
describe('hashtags', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let deniz: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem, deniz] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem'), await member(svc, 'deniz')];
  });

  afterAll(() => svc.close());

  const get = (m: Member, path: string) => svc.http().get(path).set(m.auth);
  const tagPage = async (m: Member, tag: string, q = '') =>
    (await get(m, `/api/tags/${encodeURIComponent(tag)}/reviews${q}`)).body.data.map((r: { content: string }) => r.content) as string[];
  const feed = async (m: Member) => (await get(m, '/api/feed')).body.data.map((r: { content: string }) => r.content) as string[];
  const followTag = (m: Member, tag: string) => svc.http().post(`/api/tags/${encodeURIComponent(tag)}/follow`).set(m.auth);
  const unfollowTag = (m: Member, tag: string) => svc.http().delete(`/api/tags/${encodeURIComponent(tag)}/follow`).set(m.auth);
  const setPrivacy = (m: Member, privacy_profile: 'public' | 'private') =>
    svc.publish('user.settings_updated', { userId: m.id, notification_email: true, notification_push: true, privacy_profile, theme: 'system' });

  it('stores the tags of a review in their lower-case form and lists it under any spelling of the tag', async () => {
    const r = await makeReview(svc, ayse, { content: 'Sabah #Kahve ve #ÇAY' });
    expect(r.tags).toEqual(['kahve', 'çay']);
    expect(await tagPage(bora, 'KAHVE')).toEqual(['Sabah #Kahve ve #ÇAY']);
    expect(await tagPage(bora, 'çay')).toEqual(['Sabah #Kahve ve #ÇAY']);
    expect(await tagPage(bora, 'kahvee')).toEqual([]);
  });

  it('pages a tag like the feed, newest first, with list meta', async () => {
    await makeReview(svc, bora, { content: 'B1 #sayfa' });
    await makeReview(svc, cem, { content: 'C1 #sayfa' });
    await makeReview(svc, ayse, { content: 'A1 #Sayfa' });
    expect(await tagPage(deniz, 'sayfa', '?limit=2')).toEqual(['A1 #Sayfa', 'C1 #sayfa']);
    const second = await get(deniz, '/api/tags/sayfa/reviews?page=2&limit=2');
    expect(second.body.data.map((r: { content: string }) => r.content)).toEqual(['B1 #sayfa']);
    expect(second.body.meta).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
  });

  it('leaves out private authors not followed, blocks both ways and muted authors', async () => {
    const [priv, blocker, muted, viewer] = [
      await member(svc, 'priv'),
      await member(svc, 'blocker'),
      await member(svc, 'muted'),
      await member(svc, 'viewer'),
    ];
    await setPrivacy(priv, 'private');
    for (const m of [priv, blocker, muted]) await makeReview(svc, m, { content: `${m.username} #gizli` });
    await svc.publish('block.created', { blockerId: blocker.id, blockedId: viewer.id });
    await svc.publish('mute.created', { muterId: viewer.id, mutedId: muted.id });
    expect(await tagPage(viewer, 'gizli')).toEqual([]);
    expect((await get(viewer, '/api/tags/gizli/reviews')).body.meta.total).toBe(0);
    await svc.publish('follow.created', { followerId: viewer.id, followeeId: priv.id });
    expect(await tagPage(viewer, 'gizli')).toEqual(['priv #gizli']);
    // The blocker does not see the member they blocked either.
    await makeReview(svc, viewer, { content: 'viewer #gizli' });
    expect(await tagPage(blocker, 'gizli')).not.toContain('viewer #gizli');
  });

  it('follows and unfollows a tag idempotently', async () => {
    expect((await get(cem, '/api/tags/Kahve')).body.data).toEqual({ tag: 'kahve', following: false });
    for (let i = 0; i < 2; i++) {
      const res = await followTag(cem, 'Kahve');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ tag: 'kahve', following: true });
    }
    expect((await get(cem, '/api/tags/KAHVE')).body.data).toEqual({ tag: 'kahve', following: true });
    for (let i = 0; i < 2; i++) expect((await unfollowTag(cem, 'kahve')).body.data).toEqual({ tag: 'kahve', following: false });
    expect((await get(cem, '/api/tags/kahve')).body.data.following).toBe(false);
  });

  it('refuses a malformed tag with a field error', async () => {
    for (const bad of ['a-b', 'a%20b', 'x'.repeat(51)]) {
      const res = await get(ayse, `/api/tags/${bad}/reviews`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('tag must be');
    }
    expect((await svc.http().get('/api/tags/kahve/reviews')).status).toBe(401);
  });

  it("brings a followed tag's reviews by members not followed into the feed, once, under the visibility rules", async () => {
    const [fan, author, friend, hidden] = [await member(svc, 'fan'), await member(svc, 'author'), await member(svc, 'friend'), await member(svc, 'hidden')];
    await svc.publish('follow.created', { followerId: fan.id, followeeId: friend.id });
    await followTag(fan, 'bisiklet');
    await setPrivacy(hidden, 'private');
    await makeReview(svc, author, { content: 'yeni #Bisiklet' });
    await makeReview(svc, friend, { content: 'arkadaş #bisiklet' });
    await makeReview(svc, hidden, { content: 'gizli #bisiklet' });
    await makeReview(svc, author, { content: 'etiketsiz' });
    await svc.settle();
    expect(await feed(fan)).toEqual(['arkadaş #bisiklet', 'yeni #Bisiklet']);
    expect((await get(fan, '/api/feed')).body.meta.total).toBe(2);
    await svc.publish('block.created', { blockerId: author.id, blockedId: fan.id });
    expect(await feed(fan)).toEqual(['arkadaş #bisiklet']);
    await unfollowTag(fan, 'bisiklet');
    expect(await feed(fan)).toEqual(['arkadaş #bisiklet']);
  });

  it('follows an edit: an added tag lists the review, a removed one drops it', async () => {
    const r = await makeReview(svc, bora, { content: 'önce #eski' });
    const edited = await svc.http().put(`/api/reviews/${r.id}`).set(bora.auth).send({ content: 'sonra #Yeni' });
    expect(edited.body.data.tags).toEqual(['yeni']);
    await svc.settle();
    expect(await tagPage(ayse, 'eski')).toEqual([]);
    expect(await tagPage(ayse, 'yeni')).toEqual(['sonra #Yeni']);
    expect(svc.emitted('review.updated').find((p) => p.reviewId === r.id)?.tags).toEqual(['yeni']);
  });

  it('ranks trending tags next to the categories', async () => {
    for (let i = 0; i < 3; i++) await makeReview(svc, deniz, { content: `#Trend ${i}` });
    const res = await get(ayse, '/api/trending/tags');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({ tag: 'gizli', reviews_this_week: 4, reviews_last_week: 0, change_percent: null });
    expect(res.body.data).toContainEqual({ tag: 'trend', reviews_this_week: 3, reviews_last_week: 0, change_percent: null });
    expect(res.body.data).toHaveLength(5);
  });
});
