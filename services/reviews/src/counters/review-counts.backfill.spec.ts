import { TestService } from '@app/testing';
import { reviewsCollection } from '../reviews/review.collection';
import { reviewCountsCollection } from '../reviews/review-counts.collection';
import { backfillsCollection } from '../tags/tags.backfill';
import { member, Member, startReviews, storedReview } from '../reviews.fixture';
import { ReviewCountsBackfill } from './review-counts.backfill';

describe('review counts backfill', () => {
  let svc: TestService;
  let backfill: ReviewCountsBackfill;
  let ayse: Member;

  const reviews = () => svc.store.collection(reviewsCollection);
  const counts = () => svc.store.collection(reviewCountsCollection);

  beforeAll(async () => {
    svc = await startReviews();
    backfill = svc.app.get(ReviewCountsBackfill);
    ayse = await member(svc, 'ayse');
  });

  afterAll(() => svc.close());

  it('moves older reviews\' counters to their counts rows, in batches, and the pages show them; a second run changes nothing', async () => {
    await reviews().insertMany([
      storedReview('old1', ayse.id, { like_count: 3, comment_count: 1 }),
      storedReview('old2', ayse.id),
      storedReview('old3', ayse.id, { comment_count: 2 }),
    ]);
    // A row already there (the counter repair got there first) is the one kept.
    await counts().insert({ _id: 'old3', like_count: 0, comment_count: 1 });

    expect(await backfill.backfill(2)).toBe(3);

    expect(await counts().find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'old1', like_count: 3, comment_count: 1 },
      { _id: 'old3', like_count: 0, comment_count: 1 },
    ]);
    for (const id of ['old1', 'old2', 'old3']) {
      const doc = await reviews().findById(id);
      expect(doc).not.toHaveProperty('like_count');
      expect(doc).not.toHaveProperty('comment_count');
    }
    const page = await svc.http().get('/api/reviews/old1').set(ayse.auth).expect(200);
    expect(page.body.data).toMatchObject({ likes: 3, like_count: 3, comment_count: 1 });
    expect(await backfill.backfill()).toBe(0);
  });

  it('runs at boot until it reaches the end once, then is skipped', async () => {
    await backfill.onApplicationBootstrap();
    expect(await svc.store.collection(backfillsCollection).findById('review-counts')).not.toBeNull();
    await reviews().insert(storedReview('old4', ayse.id, { like_count: 5 }));
    await backfill.onApplicationBootstrap();
    expect(await counts().findById('old4')).toBeNull();
  });
});
