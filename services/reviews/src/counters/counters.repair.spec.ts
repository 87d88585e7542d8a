import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { SqliteStore } from '@app/store';
import { testConfig, TestService } from '@app/testing';
import { followerCountsCollection } from '../read-models/follow-graph.collection';
import { likesCollection } from '../likes/like.collection';
import { productsCollection } from '../products/product.collection';
import { reviewsCollection } from '../reviews/review.collection';
import { reviewCountsCollection } from '../reviews/review-counts.collection';
import { reviewsService } from '../reviews.service-definition';
import { makeProduct, makeReview, member, Member, startReviews, storedReview } from '../reviews.fixture';
import { ReviewsCountersRepair } from './counters.repair';

const NOTHING_FIXED = {
  'reviews.like_count': 0,
  'reviews.comment_count': 0,
  'products.rating': 0,
  'products.like_count': 0,
  'follower_counts.follower_count': 0,
};

describe('reviews counter repair', () => {
  let svc: TestService;
  let repair: ReviewsCountersRepair;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let productId: string;
  let otherProductId: string;
  let reviewA: string;
  let reviewB: string;
  let post: string;

  const counts = () => svc.store.collection(reviewCountsCollection);
  const products = () => svc.store.collection(productsCollection);
  const followerCounts = () => svc.store.collection(followerCountsCollection);

  beforeAll(async () => {
    svc = await startReviews();
    repair = svc.app.get(ReviewsCountersRepair);
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    productId = (await makeProduct(svc, ayse)).id;
    otherProductId = (await makeProduct(svc, ayse, { name: 'Quiet Kettle', category: 'Kitchen' })).id;
    reviewA = (await makeReview(svc, mehmet, { product_id: productId, rating: 4 })).id;
    reviewB = (await makeReview(svc, zeynep, { product_id: productId, rating: 2 })).id;
    post = (await makeReview(svc, ayse, { content: 'A post without a product.' })).id;
    for (const m of [ayse, zeynep]) await svc.http().post(`/api/likes/reviews/${reviewA}`).set(m.auth).expect(200);
    await svc.http().post(`/api/reviews/${reviewA}/comments`).set(ayse.auth).send({ content: 'Agreed' }).expect(201);
    await svc.http().post(`/api/reviews/${post}/comments`).set(mehmet.auth).send({ content: 'Nice' }).expect(201);
    await svc.http().post(`/api/likes/products/${productId}`).set(mehmet.auth).expect(200);
    await svc.publish('follow.created', { followerId: mehmet.id, followeeId: ayse.id });
    await svc.publish('follow.created', { followerId: zeynep.id, followeeId: ayse.id });
    await svc.publish('follow.created', { followerId: ayse.id, followeeId: mehmet.id });
  });

  afterAll(() => svc.close());

  it('leaves counters that agree with their rows alone', async () => {
    const before = [await counts().find({}), await products().find({}), await followerCounts().find({})];
    expect(await repair.repair()).toEqual(NOTHING_FIXED);
    expect([await counts().find({}), await products().find({}), await followerCounts().find({})]).toEqual(before);
  });

  it('fixes exactly the counters a crash between two writes could leave wrong', async () => {
    // As if the process died between each row and its counter.
    await counts().updateOne({ _id: reviewA }, { $set: { like_count: 1, comment_count: 0 } });
    await counts().updateOne({ _id: post }, { $set: { comment_count: 3 } });
    await products().updateOne({ _id: productId }, { $set: { review_count: 1, rating_sum: 4, like_count: 0 } });
    await products().updateOne({ _id: otherProductId }, { $unset: { like_count: true } });
    await followerCounts().updateOne({ _id: ayse.id }, { $set: { follower_count: 5 } });
    await followerCounts().deleteOne({ _id: mehmet.id });
    await followerCounts().insert({ _id: zeynep.id, follower_count: 1 });

    expect(await repair.repair()).toEqual({
      'reviews.like_count': 1,
      'reviews.comment_count': 2,
      'products.rating': 1,
      'products.like_count': 1,
      'follower_counts.follower_count': 3,
    });

    expect(await counts().findById(reviewA)).toEqual({ _id: reviewA, like_count: 2, comment_count: 1 });
    // No like on the post: an absent like_count reads as 0, nothing to write.
    expect(await counts().findById(post)).toEqual({ _id: post, comment_count: 1 });
    // Nothing counted on reviewB: no row, and none made.
    expect(await counts().findById(reviewB)).toBeNull();
    expect(await products().findById(productId)).toMatchObject({ review_count: 2, rating_sum: 6, like_count: 1 });
    // An absent like_count already reads as 0: nothing to write.
    expect((await products().findById(otherProductId))?.like_count).toBeUndefined();
    expect(await followerCounts().find({}, { sort: { _id: 1 } })).toEqual(
      [
        { _id: ayse.id, follower_count: 2 },
        { _id: mehmet.id, follower_count: 1 },
        { _id: zeynep.id, follower_count: 0 },
      ].sort((a, b) => a._id.localeCompare(b._id)),
    );
    const view = await svc.http().get(`/api/products/${productId}`).set(ayse.auth);
    expect(view.body.data).toMatchObject({ rating: 3, review_count: 2, like_count: 1 });

    expect(await repair.repair()).toEqual(NOTHING_FIXED);
  });

  it('makes the counts row of a review with likes or comments that has none', async () => {
    await counts().deleteOne({ _id: reviewA });
    expect(await repair.repair()).toEqual({ ...NOTHING_FIXED, 'reviews.like_count': 1, 'reviews.comment_count': 1 });
    expect(await counts().findById(reviewA)).toEqual({ _id: reviewA, like_count: 2, comment_count: 1 });
    const view = await svc.http().get(`/api/reviews/${reviewA}`).set(ayse.auth).expect(200);
    expect(view.body.data).toMatchObject({ like_count: 2, likes: 2, comment_count: 1 });
  });

  it('counts a review whose rating changed, and forgets a deleted one, as the rating code does', async () => {
    await svc.http().put(`/api/reviews/${reviewB}`).set(zeynep.auth).send({ rating: 5 }).expect(200);
    await svc.http().delete(`/api/reviews/${reviewA}`).set(mehmet.auth).expect(200);
    await svc.settle();
    expect(await repair.repair()).toEqual(NOTHING_FIXED);
    expect(await products().findById(productId)).toMatchObject({ review_count: 1, rating_sum: 5 });
  });
});

describe('reviews counter repair at boot', () => {
  let dir: string;
  let app: INestApplication | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reviews-counters-'));
    // What a crash left on disk before review_counts: two like rows, a like_count of 0 in the review.
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    await store.open(reviewsService.collections);
    await store.collection(reviewsCollection).insert(storedReview('r1', 'u1', { content: 'Crash me' }));
    await store.collection(likesCollection).insertMany([
      { review_id: 'r1', user_id: 'u2', created_at: '2030-01-01T00:00:01.000Z' },
      { review_id: 'r1', user_id: 'u3', created_at: '2030-01-01T00:00:02.000Z' },
    ]);
    await store.close();
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const boot = async (overrides: Record<string, string> = {}) => {
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    app = await buildService(reviewsService, { config: testConfig(overrides), store, transport: new MemoryTransport() });
    return store;
  };

  it('recomputes the counters before the service serves', async () => {
    const store = await boot();
    expect(await store.collection(reviewCountsCollection).findById('r1')).toEqual({ _id: 'r1', like_count: 2, comment_count: 0 });
    // The review's own old counters were moved out (review-counts.backfill.ts).
    expect(await store.collection(reviewsCollection).findById('r1')).not.toHaveProperty('like_count');
  });

  it('is skipped with COUNTER_REPAIR=off', async () => {
    const store = await boot({ COUNTER_REPAIR: 'off' });
    expect(await store.collection(reviewCountsCollection).findById('r1')).toBeNull();
  });
});
