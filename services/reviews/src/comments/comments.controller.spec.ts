import { TestService } from '@app/testing';
import { likesCollection } from '../likes/like.collection';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';
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

  describe('editing (PUT /comments/:id)', () => {
    const put = (m: Member, id: string, content: unknown) => svc.http().put(`/api/comments/${id}`).set(m.auth).send({ content });
    let commentId: string;

    beforeAll(async () => {
      commentId = (await post(zeynep, 'First words')).body.data.id;
    });

    it('a new comment is not edited', async () => {
      const list = (await svc.http().get(`/api/reviews/${reviewId}/comments?limit=100`).set(zeynep.auth)).body.data;
      expect(list.find((c: { id: string }) => c.id === commentId)).toMatchObject({ is_edited: false, edited_at: null });
    });

    it('lets the author reword it, trimmed, and marks it edited in the reply and the list', async () => {
      const res = await put(zeynep, commentId, '  Better words  ');
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Comment updated');
      expect(res.body.data).toMatchObject({ id: commentId, reviewId, userId: zeynep.id, content: 'Better words', is_edited: true, user: { id: zeynep.id } });
      expect(Date.parse(res.body.data.edited_at)).toBeGreaterThanOrEqual(Date.parse(res.body.data.createdAt));
      const list = (await svc.http().get(`/api/reviews/${reviewId}/comments?limit=100`).set(ayse.auth)).body.data;
      expect(list.find((c: { id: string }) => c.id === commentId)).toMatchObject({ content: 'Better words', is_edited: true });
    });

    it.each([
      ['blank', '   '],
      ['too long', 'x'.repeat(2001)],
      ['not text', { $gt: '' }],
    ])('refuses a %s edit with 400', async (_label, content) => {
      const res = await put(zeynep, commentId, content);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('content');
    });

    it("refuses another member's edit with 403, the review author's too", async () => {
      expect((await put(mehmet, commentId, 'hijack')).status).toBe(403);
      expect((await put(ayse, commentId, 'hijack')).status).toBe(403);
      const list = (await svc.http().get(`/api/reviews/${reviewId}/comments?limit=100`).set(ayse.auth)).body.data;
      expect(list.find((c: { id: string }) => c.id === commentId).content).toBe('Better words');
    });

    it('answers a missing comment with 404', async () => {
      expect((await put(zeynep, 'nope', 'hi')).status).toBe(404);
    });

    it('does not count an edit as a new comment', async () => {
      const before = await count();
      await put(zeynep, commentId, 'Once more');
      expect(await count()).toBe(before);
    });
  });

  it('keeps the count exact under parallel posts', async () => {
    const before = await count();
    await Promise.all(Array.from({ length: 30 }, (_, i) => post(zeynep, `burst ${i}`)));
    expect(await count()).toBe(before + 30);
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
