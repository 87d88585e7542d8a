import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('mutes (mute.created / mute.removed)', () => {
  let svc: TestService;
  let ayse: Member;
  let bora: Member;
  let cem: Member;
  let productId: string;
  let ayseReview: string;
  let boraReview: string;
  let cemReview: string;

  const get = (m: Member, path: string) => svc.http().get(`/api${path}`).set(m.auth);
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);
  const texts = (res: { body: { data: { content: string }[] } }) => res.body.data.map((c) => c.content);

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, bora, cem] = [await member(svc, 'ayse'), await member(svc, 'bora'), await member(svc, 'cem')];
    await svc.publish('follow.created', { followerId: ayse.id, followeeId: bora.id });
    await svc.publish('follow.created', { followerId: ayse.id, followeeId: cem.id });
    productId = (await makeProduct(svc, cem)).id;
    ayseReview = (await makeReview(svc, ayse, { product_id: productId, rating: 5, content: 'Ayse' })).id;
    boraReview = (await makeReview(svc, bora, { product_id: productId, rating: 2, content: 'Bora' })).id;
    cemReview = (await makeReview(svc, cem, { product_id: productId, rating: 4, content: 'Cem' })).id;
    await svc.http().post(`/api/reviews/${cemReview}/comments`).set(bora.auth).send({ content: 'from Bora' });
    await svc.http().post(`/api/reviews/${cemReview}/comments`).set(cem.auth).send({ content: 'from Cem' });
    await svc.http().post(`/api/saved/reviews/${boraReview}`).set(ayse.auth);
    await svc.settle();
    // Ayse's timeline exists before the mute, so the mute has to take Bora out of it.
    expect(ids(await get(ayse, '/feed'))).toEqual([cemReview, boraReview, ayseReview]);
    await svc.publish('mute.created', { muterId: ayse.id, mutedId: bora.id });
    await svc.publish('mute.created', { muterId: ayse.id, mutedId: bora.id });
  });

  afterAll(() => svc.close());

  it("leaves the muted author's reviews out of the muter's feed, product page, review list and saved items", async () => {
    expect(ids(await get(ayse, '/feed'))).toEqual([cemReview, ayseReview]);
    expect(ids(await get(ayse, `/reviews?productId=${productId}`))).toEqual([cemReview, ayseReview]);
    const all = await get(ayse, '/reviews');
    expect(ids(all)).toEqual([cemReview, ayseReview]);
    expect(all.body.meta.total).toBe(2);
    expect((await get(ayse, '/saved?type=reviews')).body.meta.total).toBe(0);
  });

  it('keeps a new review of the muted author out of the timeline (fan-out skips the muter)', async () => {
    const other = (await makeProduct(svc, cem, { name: 'Desk Lamp' })).id;
    const fresh = (await makeReview(svc, bora, { product_id: other, rating: 3, content: 'Lamp' })).id;
    await svc.settle();
    expect(ids(await get(ayse, '/feed'))).not.toContain(fresh);
    expect(ids(await get(cem, `/reviews?productId=${other}`))).toEqual([fresh]);
  });

  it("leaves the muted member's comments and activities out of the muter's lists", async () => {
    const thread = await get(ayse, `/reviews/${cemReview}/comments`);
    expect(texts(thread)).toEqual(['from Cem']);
    expect(thread.body.meta.total).toBe(1);
    const activity = await get(ayse, '/activities/feed');
    expect(activity.body.data.map((a: { user: { id: string } }) => a.user.id)).not.toContain(bora.id);
  });

  it("still shows the muted member's own profile and a review opened by its link (as Mastodon does)", async () => {
    expect((await get(ayse, `/reviews?userId=${bora.id}`)).body.meta.total).toBe(2);
    expect((await get(ayse, `/reviews/${boraReview}`)).status).toBe(200);
  });

  it('is one-way and leaves everyone else untouched', async () => {
    expect(ids(await get(bora, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview, ayseReview]);
    expect(ids(await get(cem, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview, ayseReview]);
    expect(texts(await get(bora, `/reviews/${cemReview}/comments`))).toEqual(['from Bora', 'from Cem']);
  });

  it('brings everything back after mute.removed, the timeline included', async () => {
    await svc.publish('mute.removed', { muterId: ayse.id, mutedId: bora.id });
    expect(ids(await get(ayse, '/feed'))).toContain(boraReview);
    expect(ids(await get(ayse, `/reviews?productId=${productId}`))).toEqual([cemReview, boraReview, ayseReview]);
    expect(texts(await get(ayse, `/reviews/${cemReview}/comments`))).toEqual(['from Bora', 'from Cem']);
    expect((await get(ayse, '/saved?type=reviews')).body.meta.total).toBe(1);
    const activity = await get(ayse, '/activities/feed');
    expect(activity.body.data.map((a: { user: { id: string } }) => a.user.id)).toContain(bora.id);
  });
});
