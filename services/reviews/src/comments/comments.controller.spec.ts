import { TestService } from '@app/testing';
import { likesCollection } from '../likes/like.collection';
import { makeReview, member, Member, startReviews } from '../reviews.test-fixture';
import { commentsCollection } from './comment.collection';

describe('comments (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let reviewId: string;

  beforeAll(async () => {
    svc = await startReviews();
    ayse = await member(svc, 'ayse');
    mehmet = await member(svc, 'mehmet');
    zeynep = await member(svc, 'zeynep');
    reviewId = (await makeReview(svc, ayse, { content: 'Kettle review' })).id;
  });

  afterAll(() => svc.close());

  const post = (m: Member, content: unknown, id = reviewId) =>
    svc.http().post(`/api/reviews/${id}/comments`).set(m.auth).send({ content });
  const count = async () => (await svc.http().get(`/api/reviews/${reviewId}`).set(ayse.auth)).body.data.comment_count;

  it('adds a comment with the spec shape and counts it on the review', async () => {
    const res = await post(mehmet, '  Which model?  ');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      reviewId,
      userId: mehmet.id,
      content: 'Which model?',
      user: { id: mehmet.id, username: 'mehmet' },
    });
    expect(res.body.data.createdAt).toEqual(expect.any(String));
    expect(await count()).toBe(1);
    await svc.settle();
    expect(svc.emitted('comment.created')).toEqual([
      expect.objectContaining({ reviewId, reviewAuthorId: ayse.id, userId: mehmet.id, excerpt: 'Which model?' }),
    ]);
  });

  it.each([
    ['blank', '   '],
    ['too long', 'x'.repeat(2001)],
    ['not text', { $gt: '' }],
  ])('refuses a %s comment with 400', async (_label, content) => {
    const res = await post(mehmet, content);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('content');
  });

  it('answers an unknown review with 404', async () => {
    expect((await post(mehmet, 'hi', 'nope')).status).toBe(404);
    expect((await svc.http().get('/api/reviews/nope/comments').set(mehmet.auth)).status).toBe(404);
  });

  it('lists oldest first with meta', async () => {
    await post(zeynep, 'Second');
    await post(ayse, 'Third');
    const res = await svc.http().get(`/api/reviews/${reviewId}/comments?limit=2`).set(zeynep.auth);
    expect(res.body.data.map((c: { content: string }) => c.content)).toEqual(['Which model?', 'Second']);
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
  });

  it('lets the comment author or the review author delete, nobody else', async () => {
    const list = (await svc.http().get(`/api/reviews/${reviewId}/comments`).set(ayse.auth)).body.data;
    const [byMehmet, byZeynep] = list as { id: string }[];
    expect((await svc.http().delete(`/api/comments/${byMehmet.id}`).set(zeynep.auth)).status).toBe(403);
    expect((await svc.http().delete(`/api/comments/${byMehmet.id}`).set(mehmet.auth)).status).toBe(200);
    expect((await svc.http().delete(`/api/comments/${byZeynep.id}`).set(ayse.auth)).status).toBe(200);
    expect((await svc.http().delete(`/api/comments/${byZeynep.id}`).set(ayse.auth)).status).toBe(404);
    expect(await count()).toBe(1);
  });

  it('keeps the count exact under parallel posts', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => post(zeynep, `burst ${i}`)));
    expect(await count()).toBe(31);
  });

  it('drops the comments and likes of a deleted review', async () => {
    const r = (await makeReview(svc, ayse, { content: 'Short-lived' })).id;
    await post(mehmet, 'gone soon', r);
    await svc.http().post(`/api/likes/reviews/${r}`).set(mehmet.auth);
    await svc.http().delete(`/api/reviews/${r}`).set(ayse.auth);
    await svc.settle();
    expect(await svc.store.collection(commentsCollection).count({ review_id: r })).toBe(0);
    expect(await svc.store.collection(likesCollection).count({ review_id: r })).toBe(0);
  });
});
