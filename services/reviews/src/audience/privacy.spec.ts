import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';
import { AudienceService } from './audience.service';

describe('privacy of reviews (user.settings_updated + follow graph)', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let productId: string;
  let cemReview: string;
  let boraReview: string;

  const get = (m: Member, path: string) => svc.http().get(`/api${path}`).set(m.auth);
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const setPrivacy = (m: Member, privacy_profile: 'public' | 'friends' | 'private') =>
    svc.publish('user.settings_updated', {
      userId: m.id,
      notification_email: true,
      notification_push: true,
      privacy_profile,
      theme: 'system',
    });

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem')];
    productId = (await makeProduct(svc, bora)).id;
    cemReview = (await makeReview(svc, cem, { product_id: productId, rating: 4, content: 'Cem on earbuds' })).id;
    boraReview = (await makeReview(svc, bora, { product_id: productId, rating: 5, content: 'Bora on earbuds' })).id;
    // Bora follows Cem (approved before Cem went private) and likes Cem's review.
    await svc.publish('follow.created', { followerId: bora.id, followeeId: cem.id });
    await svc.http().post(`/api/likes/reviews/${cemReview}`).set(bora.auth);
    await svc.publish('follow.created', { followerId: ayse.id, followeeId: bora.id });
    await setPrivacy(cem, 'private');
    await svc.settle();
  });

  afterAll(() => svc.close());

  it("hides a private account's reviews from a member who does not follow it", async () => {
    const byUser = await get(ayse, `/reviews?userId=${cem.id}`);
    expect(byUser.status).toBe(200);
    expect(byUser.body).toEqual({ success: true, data: [], meta: { total: 0, page: 1, limit: 20, totalPages: 0 } });
    expect((await get(ayse, `/reviews/${cemReview}`)).body).toEqual({ success: false, message: 'Review not found', code: 'REVIEW_NOT_FOUND' });
    expect((await get(ayse, `/reviews/${cemReview}`)).status).toBe(404);
    const byProduct = await get(ayse, `/reviews?productId=${productId}`);
    expect(ids(byProduct)).toEqual([boraReview]);
    expect(byProduct.body.meta.total).toBe(1);
    expect(ids(await get(ayse, '/reviews'))).toEqual([boraReview]);
  });

  it('answers 404 for the comments, likes and saving of a hidden review', async () => {
    expect((await get(ayse, `/reviews/${cemReview}/comments`)).status).toBe(404);
    expect((await get(ayse, `/likes/reviews/${cemReview}/users`)).status).toBe(404);
    expect((await get(ayse, `/likes/reviews/${cemReview}/status`)).status).toBe(404);
    expect((await svc.http().post(`/api/likes/reviews/${cemReview}`).set(ayse.auth)).status).toBe(404);
    const comment = await svc.http().post(`/api/reviews/${cemReview}/comments`).set(ayse.auth).send({ content: 'Hi' });
    expect(comment.status).toBe(404);
    expect((await svc.http().post(`/api/saved/reviews/${cemReview}`).set(ayse.auth)).status).toBe(404);
  });

  it('keeps the hidden review out of activities', async () => {
    expect((await get(ayse, `/activities/user?userId=${cem.id}`)).body.meta.total).toBe(0);
    // Ayse follows Bora, who liked Cem's review: that activity would show the hidden review's title.
    const feed = await get(ayse, '/activities/feed');
    expect(feed.body.data.map((a: { type: string }) => a.type)).toEqual(['review_created']);
    expect((await get(ayse, `/activities/user?userId=${bora.id}`)).body.meta.total).toBe(1);
    expect((await get(bora, '/activities/feed')).body.data.map((a: { type: string }) => a.type)).toContain('review_liked');
  });

  it('shows everything to the author and to an approved follower', async () => {
    for (const viewer of [cem, bora]) {
      expect(ids(await get(viewer, `/reviews?userId=${cem.id}`))).toEqual([cemReview]);
      expect((await get(viewer, `/reviews/${cemReview}`)).status).toBe(200);
      expect(ids(await get(viewer, `/reviews?productId=${productId}`))).toEqual([boraReview, cemReview]);
      expect((await get(viewer, `/likes/reviews/${cemReview}/users`)).body.meta.total).toBe(1);
      expect((await get(viewer, `/activities/user?userId=${cem.id}`)).body.meta.total).toBe(1);
    }
    expect(ids(await get(bora, '/feed'))).toEqual([boraReview, cemReview]);
  });

  it('keeps a pending request out and lets the accepted follower in, feed included', async () => {
    await svc.publish('follow.requested', { followerId: ayse.id, followeeId: cem.id });
    expect(ids(await get(ayse, `/reviews?userId=${cem.id}`))).toEqual([]);
    expect(ids(await get(ayse, '/feed'))).not.toContain(cemReview);
    await svc.publish('follow.accepted', { followerId: ayse.id, followeeId: cem.id });
    expect(ids(await get(ayse, `/reviews?userId=${cem.id}`))).toEqual([cemReview]);
    expect((await get(ayse, `/reviews/${cemReview}/comments`)).status).toBe(200);
    expect(ids(await get(ayse, '/feed'))).toContain(cemReview);
    await svc.publish('follow.removed', { followerId: ayse.id, followeeId: cem.id, wasPending: false });
    expect((await get(ayse, `/reviews/${cemReview}`)).status).toBe(404);
  });

  it("treats 'friends' like private, and public again opens everything", async () => {
    await setPrivacy(cem, 'friends');
    expect(ids(await get(ayse, `/reviews?userId=${cem.id}`))).toEqual([]);
    await setPrivacy(cem, 'public');
    expect(ids(await get(ayse, `/reviews?userId=${cem.id}`))).toEqual([cemReview]);
    expect((await get(ayse, `/reviews/${cemReview}`)).status).toBe(200);
    await setPrivacy(cem, 'private');
  });

  it('ignores an older setting that arrives after a newer one', async () => {
    const audience = svc.app.get(AudienceService);
    const dora = await member(svc, 'dora');
    await audience.setPrivacy(dora.id, 'private', '2030-01-02T00:00:00.000Z');
    await audience.setPrivacy(dora.id, 'public', '2030-01-01T00:00:00.000Z');
    expect(await audience.isRestricted(dora.id)).toBe(true);
    await audience.setPrivacy(dora.id, 'public', '2030-01-03T00:00:00.000Z');
    expect(await audience.isRestricted(dora.id)).toBe(false);
  });
});
