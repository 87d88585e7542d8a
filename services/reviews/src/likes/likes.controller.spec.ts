import { TestService } from '@app/testing';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('likes (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let reviewId: string;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
    reviewId = (await makeReview(svc, ayse, { content: 'Great mug' })).id;
  });

  afterAll(() => svc.close());

  const toggle = (m: Member, id = reviewId) => svc.http().post(`/api/likes/reviews/${id}`).set(m.auth);
  const status = (m: Member) => svc.http().get(`/api/likes/reviews/${reviewId}/status`).set(m.auth);

  it('toggles on and off with {liked, like_count} and announces both', async () => {
    const on = await toggle(mehmet);
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ liked: true, like_count: 1 });
    expect((await status(mehmet)).body.data).toEqual({ liked: true, like_count: 1 });
    expect((await status(ayse)).body.data).toEqual({ liked: false, like_count: 1 });
    const review = await svc.http().get(`/api/reviews/${reviewId}`).set(mehmet.auth);
    expect(review.body.data).toMatchObject({ likes: 1, like_count: 1, liked: true });

    const off = await toggle(mehmet);
    expect(off.body.data).toEqual({ liked: false, like_count: 0 });
    await svc.settle();
    expect(svc.emitted('review.liked')).toEqual([
      { reviewId, reviewAuthorId: ayse.id, userId: mehmet.id, likeCount: 1 },
    ]);
    expect(svc.emitted('review.unliked')).toEqual([
      { reviewId, reviewAuthorId: ayse.id, userId: mehmet.id, likeCount: 0 },
    ]);
  });

  it('answers an unknown review with 404 on every route', async () => {
    expect((await toggle(mehmet, 'nope')).status).toBe(404);
    expect((await svc.http().get('/api/likes/reviews/nope/status').set(mehmet.auth)).status).toBe(404);
    const users = await svc.http().get('/api/likes/reviews/nope/users').set(mehmet.auth);
    expect(users.body).toEqual({ success: false, message: 'Review not found', code: 'REVIEW_NOT_FOUND' });
  });

  it('stays exact under 50 concurrent toggles by different members', async () => {
    const target = (await makeReview(svc, ayse, { content: 'Popular' })).id;
    const members = await Promise.all(Array.from({ length: 50 }, (_, i) => member(svc, `fan${i}`)));
    const replies = await Promise.all(members.map((m) => toggle(m, target)));
    expect(replies.every((r) => r.status === 200 && r.body.data.liked === true)).toBe(true);
    const counts = replies.map((r) => r.body.data.like_count as number).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Each event tells the like_count its own write left, as the replies do.
    await svc.settle();
    const told = svc.emitted('review.liked').filter((e) => e.reviewId === target).map((e) => e.likeCount);
    expect(told.sort((a, b) => a - b)).toEqual(counts);
    const after = await svc.http().get(`/api/likes/reviews/${target}/status`).set(ayse.auth);
    expect(after.body.data.like_count).toBe(50);

    // Half of them take it back, concurrently.
    await Promise.all(members.slice(0, 25).map((m) => toggle(m, target)));
    const half = await svc.http().get(`/api/reviews/${target}`).set(ayse.auth);
    expect(half.body.data.like_count).toBe(25);
  });

  it('keeps one row and an exact count when one member toggles 50 times at once', async () => {
    const target = (await makeReview(svc, ayse, { content: 'Hammered' })).id;
    const replies = await Promise.all(Array.from({ length: 50 }, () => toggle(mehmet, target)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const s = await svc.http().get(`/api/likes/reviews/${target}/status`).set(mehmet.auth);
    const users = await svc.http().get(`/api/likes/reviews/${target}/users`).set(mehmet.auth);
    expect(s.body.data.like_count).toBe(users.body.meta.total);
    expect(s.body.data.like_count).toBe(s.body.data.liked ? 1 : 0);
  });

  it('lists the likers with cards, page 1 and limit 20 by default', async () => {
    await toggle(mehmet);
    await toggle(ayse);
    const res = await svc.http().get(`/api/likes/reviews/${reviewId}/users`).set(ayse.auth);
    expect(res.body.meta).toEqual({ total: 2, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.data.map((u: { username: string }) => u.username).sort()).toEqual(['ayse', 'mehmet']);
    expect(res.body.data[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), display_name: expect.any(String), liked_at: expect.any(String) }),
    );
    const page2 = await svc.http().get(`/api/likes/reviews/${reviewId}/users?page=2&limit=1`).set(ayse.auth);
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.meta.totalPages).toBe(2);
  });
});
