import { EventBus } from '@app/bus';
import { probeStore, StoreProbe, TestService } from '@app/testing';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';

/**
 * What a like toggle costs here (issue 28 §4): the like row, the review's like_count, the liker's
 * activity and the review.liked outbox row commit once (before: four commits, with the outbox
 * row's drop and this service's own handler of the event and its inbox row). Published outbox rows
 * go with a later commit.
 */
describe('likes: commits per toggle', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let probe: StoreProbe;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet] = [await member(svc, 'ayse'), await member(svc, 'mehmet')];
    probe = probeStore(svc.store);
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  it('one commit per toggle, liking and unliking alike', async () => {
    const review = await makeReview(svc, ayse, { content: 'Counted' });
    await svc.settle();
    for (const liked of [true, false, true]) {
      await svc.app.get(EventBus).dropPublished(); // rows published before: not this toggle's cost
      probe.reset();
      const res = await svc.http().post(`/api/likes/reviews/${review.id}`).set(mehmet.auth);
      await svc.settle();
      expect(res.body.data).toEqual({ liked, like_count: liked ? 1 : 0 });
      expect(probe.commits).toBe(1);
    }
    const activities = await svc.http().get(`/api/activities/user`).set(mehmet.auth);
    expect(activities.body.data.filter((a: { type: string }) => a.type === 'review_liked')).toHaveLength(1);
  });

  // Nothing is read before the write, which decides: a like is the row's insert, the count's move,
  // the activity and the outbox row; an unlike is a refused insert, the row's delete, the count's
  // move, the activity's delete and the outbox row. The one read is the proof check (tests only),
  // and the first toggle reads the review, which its creation's commit left out of the cache.
  it('no read of the like row or the count before the writes', async () => {
    const review = await makeReview(svc, ayse, { content: 'Operations' });
    await svc.settle();
    const ops = [];
    for (let i = 0; i < 3; i++) {
      await svc.app.get(EventBus).dropPublished();
      probe.reset();
      await svc.http().post(`/api/likes/reviews/${review.id}`).set(mehmet.auth);
      ops.push({ reads: probe.reads, writes: probe.writes });
    }
    expect(ops).toEqual([
      { reads: 2, writes: 4 },
      { reads: 1, writes: 5 },
      { reads: 1, writes: 4 },
    ]);
  });
});
