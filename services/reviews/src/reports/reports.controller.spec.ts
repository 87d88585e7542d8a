import { TestService } from '@app/testing';
import { makeReview, member, Member, startReviews } from '../reviews.fixture';
import { reportsCollection } from './report.collection';

describe('reporting a review (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let reviewId: string;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    reviewId = (await makeReview(svc, ayse, { content: 'Buy my course!!!' })).id;
  });

  afterAll(() => svc.close());

  const report = (m: Member, body: Record<string, unknown> = {}, id = reviewId) =>
    svc.http().post(`/api/reviews/${id}/report`).set(m.auth).send(body);
  const rows = () => svc.store.collection(reportsCollection).find({ review_id: reviewId });

  it('stores a report for moderators and answers Report received', async () => {
    const res = await report(mehmet, { reason: '  Spam  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, message: 'Report received', data: null });
    expect(await rows()).toEqual([
      expect.objectContaining({ reporter_id: mehmet.id, review_author_id: ayse.id, reason: 'Spam', status: 'open' }),
    ]);
  });

  it('takes no reason, or a blank one, as none', async () => {
    expect((await report(zeynep, { reason: '' })).status).toBe(201);
    expect((await rows()).find((r) => r.reporter_id === zeynep.id)?.reason).toBeNull();
  });

  it('refuses a second report by the same member with 409', async () => {
    const res = await report(mehmet, { reason: 'Again' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'You have already reported this review', code: 'ALREADY_REPORTED' });
    expect(await rows()).toHaveLength(2);
  });

  it('stores exactly one report when the same member sends 10 at once', async () => {
    const target = (await makeReview(svc, ayse, { content: 'Raced' })).id;
    const replies = await Promise.all(Array.from({ length: 10 }, () => report(zeynep, {}, target)));
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it('validates the reason and the review', async () => {
    const long = await report(zeynep, { reason: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect((await report(zeynep, { reason: 42 })).status).toBe(400);
    expect((await report(zeynep, { other: 1 })).status).toBe(400);
    expect((await report(mehmet, {}, 'nope')).status).toBe(404);
    const own = await report(ayse);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('You cannot report your own review');
  });

  it("answers 404 for a review the member may not see", async () => {
    await svc.publish('block.created', { blockerId: ayse.id, blockedId: zeynep.id });
    const target = (await makeReview(svc, ayse, { content: 'Hidden from Zeynep' })).id;
    expect((await report(zeynep, {}, target)).status).toBe(404);
  });

  it('drops the reports of a deleted review', async () => {
    await svc.http().delete(`/api/reviews/${reviewId}`).set(ayse.auth);
    await svc.settle();
    expect(await rows()).toEqual([]);
  });

  it('needs a token', async () => {
    expect((await svc.http().post(`/api/reviews/${reviewId}/report`).send({})).status).toBe(401);
  });
});

describe('reporting a comment (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let reviewId: string;
  let commentId: string;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    reviewId = (await makeReview(svc, ayse, { content: 'Good blender' })).id;
    commentId = (await svc.http().post(`/api/reviews/${reviewId}/comments`).set(mehmet.auth).send({ content: 'Spam link here' })).body.data.id;
  });

  afterAll(() => svc.close());

  const report = (m: Member, body: Record<string, unknown> = {}, id = commentId) =>
    svc.http().post(`/api/comments/${id}/report`).set(m.auth).send(body);
  const rows = () => svc.store.collection(reportsCollection).find({ comment_id: commentId });

  it('stores a report of the comment beside one of its review, once per member', async () => {
    expect((await svc.http().post(`/api/reviews/${reviewId}/report`).set(zeynep.auth).send({})).status).toBe(201);
    const res = await report(zeynep, { reason: ' Spam ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, message: 'Report received', data: null });
    expect(await rows()).toEqual([
      expect.objectContaining({ review_id: reviewId, reporter_id: zeynep.id, review_author_id: mehmet.id, reason: 'Spam', status: 'open' }),
    ]);
    const again = await report(zeynep);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You have already reported this comment');
  });

  it('refuses one own comment, a bad reason, an unknown comment and a comment on a review the member may not see', async () => {
    const own = await report(mehmet);
    expect(own.status).toBe(400);
    expect(own.body.code).toBe('CANNOT_REPORT_OWN_COMMENT');
    expect((await report(ayse, { reason: 'x'.repeat(501) })).status).toBe(400);
    expect((await report(ayse, { other: 1 })).status).toBe(400);
    expect((await report(ayse, {}, 'nope')).status).toBe(404);
    await svc.publish('block.created', { blockerId: ayse.id, blockedId: zeynep.id });
    const target = (await makeReview(svc, ayse, { content: 'Not for Zeynep' })).id;
    const other = (await svc.http().post(`/api/reviews/${target}/comments`).set(mehmet.auth).send({ content: 'Hi' })).body.data.id;
    expect((await report(zeynep, {}, other)).status).toBe(404);
  });

  it('needs a token', async () => {
    expect((await svc.http().post(`/api/comments/${commentId}/report`).send({})).status).toBe(401);
  });
});
