import { TestService } from '@app/testing';
import { makeReview, member, Member, staffMember, startReviews } from '../reviews.fixture';

describe('moderation (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let mod: Member;
  let admin: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet] = [await member(svc, 'ayse'), await member(svc, 'mehmet')];
    mod = await staffMember(svc, 'mod', 'moderator');
    admin = await staffMember(svc, 'admin', 'admin');
  });

  afterAll(() => svc.close());

  const http = () => svc.http();
  const reports = (m: Member) => http().get('/api/moderation/reports').set(m.auth);
  /** The moderator and the admin, as the staff list orders them. */
  const staff = () => [mod.id, admin.id].sort();

  it('answers 403 to members on every moderation route, before it reads the body or the query (issue 31 §7)', async () => {
    const bad = { reason: 7, hours: 'soon', role: 'emperor', unknown: true };
    const calls = [
      http().get('/api/moderation/reports'),
      http().get('/api/moderation/reports?status=whatever&page=zero&unknown=1'),
      http().get('/api/moderation/log'),
      http().get('/api/moderation/log?limit=-4&unknown=1'),
      http().get('/api/moderation/staff'),
      http().post('/api/moderation/reports/x/dismiss').send({ reason: 'r' }),
      http().post('/api/moderation/reports/x/dismiss').send(bad),
      http().post('/api/moderation/reviews/x/hide').send({ reason: 'r' }),
      http().post('/api/moderation/reviews/x/hide').send(bad),
      http().post('/api/moderation/reviews/x/unhide').send(bad),
      http().post('/api/moderation/comments/x/hide').send({ reason: 'r' }),
      http().post('/api/moderation/comments/x/hide').send(bad),
      http().post('/api/moderation/comments/x/unhide').send(bad),
      http().post(`/api/moderation/suspensions/${ayse.id}`).send({ hours: 1, reason: 'r' }),
      http().post(`/api/moderation/suspensions/${ayse.id}`).send(bad),
    ];
    for (const call of calls) {
      const res = await call.set(mehmet.auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('MODERATOR_ONLY');
    }
    for (const who of [mehmet, mod]) {
      for (const body of [{ role: 'moderator', reason: 'r' }, bad]) {
        const role = await http().put(`/api/moderation/roles/${ayse.id}`).set(who.auth).send(body);
        expect(role.status).toBe(403);
        expect(role.body.code).toBe('ADMIN_ONLY');
      }
    }
    // Staff still get the field errors.
    const invalid = await http().post('/api/moderation/reviews/x/hide').set(mod.auth).send(bad);
    expect(invalid.status).toBe(400);
    expect((await http().put(`/api/moderation/roles/${ayse.id}`).set(admin.auth).send(bad)).status).toBe(400);
  });

  it('shows open reports with the reported review; dismiss settles one and logs who and why', async () => {
    const review = await makeReview(svc, ayse, { content: 'Fine product' });
    await http().post(`/api/reviews/${review.id}/report`).set(mehmet.auth).send({ reason: 'Rude' });
    const open = await reports(mod);
    expect(open.status).toBe(200);
    expect(open.body.data).toEqual([
      expect.objectContaining({
        status: 'open',
        reason: 'Rude',
        reporter: expect.objectContaining({ id: mehmet.id }),
        review: expect.objectContaining({ id: review.id, content: 'Fine product', hidden: false, user: expect.objectContaining({ id: ayse.id }) }),
      }),
    ]);
    const id = open.body.data[0].id;
    // the staff's open queues follow a report and its dismissal live (issue 43 §4)
    await svc.settle();
    expect(svc.emitted('moderation.report_filed')).toEqual([{ reportId: id, reviewId: review.id, commentId: null, reporterId: mehmet.id, staffIds: staff() }]);
    expect((await http().post(`/api/reviews/${review.id}/report`).set(mehmet.auth).send({ reason: 'Again' })).status).toBe(409);
    expect((await http().post(`/api/moderation/reports/${id}/dismiss`).set(mod.auth).send({})).status).toBe(400);
    expect((await http().post(`/api/moderation/reports/${id}/dismiss`).set(mod.auth).send({ reason: 'Not rude' })).status).toBe(200);
    await svc.settle();
    expect(svc.emitted('moderation.report_filed')).toHaveLength(1);
    expect(svc.emitted('moderation.report_dismissed')).toEqual([{ reportId: id, dismissedBy: mod.id, staffIds: staff() }]);
    expect((await reports(mod)).body.data).toEqual([]);
    expect((await http().get('/api/moderation/reports?status=dismissed').set(mod.auth)).body.data[0].id).toBe(id);
    expect((await http().post('/api/moderation/reports/nope/dismiss').set(mod.auth).send({ reason: 'x' })).status).toBe(404);
    const log = (await http().get('/api/moderation/log').set(admin.auth)).body.data;
    expect(log[0]).toEqual(expect.objectContaining({ action: 'dismiss', reason: 'Not rude', target_id: id, actor: expect.objectContaining({ id: mod.id }) }));
  });

  it('hides a review from every listing, keeps it for moderators and tells its author', async () => {
    const review = await makeReview(svc, ayse, { content: 'Buy my course' });
    await http().post(`/api/reviews/${review.id}/report`).set(mehmet.auth).send({ reason: 'Spam' });
    const res = await http().post(`/api/moderation/reviews/${review.id}/hide`).set(mod.auth).send({ reason: 'Spam links' });
    expect(res.status).toBe(200);
    await svc.settle();
    expect(svc.emitted('moderation.content_hidden')).toEqual([{ kind: 'review', contentId: review.id, authorId: ayse.id, reason: 'Spam links', staffIds: staff() }]);
    for (const viewer of [mehmet, ayse]) {
      expect((await http().get(`/api/reviews/${review.id}`).set(viewer.auth)).status).toBe(404);
      const listed = (await http().get(`/api/reviews?userId=${ayse.id}`).set(viewer.auth)).body.data.map((r: { id: string }) => r.id);
      expect(listed).not.toContain(review.id);
      const feed = (await http().get('/api/feed').set(viewer.auth)).body.data.map((r: { id: string }) => r.id);
      expect(feed).not.toContain(review.id);
    }
    const actioned = (await http().get('/api/moderation/reports?status=actioned').set(mod.auth)).body.data;
    expect(actioned[0].review).toEqual(expect.objectContaining({ id: review.id, hidden: true }));
    expect((await http().post(`/api/moderation/reviews/${review.id}/unhide`).set(mod.auth).send({ reason: 'Appeal' })).status).toBe(200);
    expect((await http().get(`/api/reviews/${review.id}`).set(mehmet.auth)).status).toBe(200);
    const actions = (await http().get('/api/moderation/log').set(mod.auth)).body.data.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 2)).toEqual(['unhide', 'hide']);
  });

  it('queues a comment report with its text; hiding the comment takes it out of the thread and the count, tells its author', async () => {
    const review = await makeReview(svc, mehmet, { content: 'Nice kettle' });
    const post = (text: string) => http().post(`/api/reviews/${review.id}/comments`).set(ayse.auth).send({ content: text });
    const kept = (await post('Agreed')).body.data;
    const rude = (await post('You are an idiot')).body.data;
    const count = async () => (await http().get(`/api/reviews/${review.id}`).set(mehmet.auth)).body.data.comment_count;
    expect(await count()).toBe(2);

    expect((await http().post(`/api/comments/${rude.id}/report`).set(mehmet.auth).send({ reason: 'Insult' })).status).toBe(201);
    const open = (await reports(mod)).body.data;
    expect(open[0]).toEqual(
      expect.objectContaining({
        reason: 'Insult',
        reporter: expect.objectContaining({ id: mehmet.id }),
        comment: { id: rude.id, review_id: review.id, content: 'You are an idiot', hidden: false, user: expect.objectContaining({ id: ayse.id }) },
        review: expect.objectContaining({ id: review.id }),
      }),
    );

    expect((await http().post(`/api/moderation/comments/${rude.id}/hide`).set(mod.auth).send({ reason: 'Insults' })).status).toBe(200);
    await svc.settle();
    expect(svc.emitted('moderation.content_hidden')).toContainEqual({ kind: 'comment', contentId: rude.id, authorId: ayse.id, reason: 'Insults', staffIds: staff() });
    const thread = async () => (await http().get(`/api/reviews/${review.id}/comments`).set(mehmet.auth)).body;
    expect((await thread()).data.map((c: { id: string }) => c.id)).toEqual([kept.id]);
    expect(await count()).toBe(1);
    // Hiding twice changes nothing (no second log row, no second notice); the report was settled by the hide.
    expect((await http().post(`/api/moderation/comments/${rude.id}/hide`).set(mod.auth).send({ reason: 'Again' })).status).toBe(200);
    await svc.settle();
    expect(await count()).toBe(1);
    expect(svc.emitted('moderation.content_hidden').filter((e) => e.contentId === rude.id)).toHaveLength(1);
    const hides = (await http().get('/api/moderation/log').set(mod.auth)).body.data.filter((e: { action: string; target_id: string }) => e.action === 'hide_comment');
    expect(hides).toHaveLength(1);
    expect((await reports(mod)).body.data.map((r: { id: string }) => r.id)).not.toContain(open[0].id);
    const actioned = (await http().get('/api/moderation/reports?status=actioned').set(mod.auth)).body.data;
    expect(actioned.find((r: { id: string }) => r.id === open[0].id).comment.hidden).toBe(true);
    // A hidden comment cannot be reported again.
    expect((await http().post(`/api/comments/${rude.id}/report`).set(admin.auth).send({})).status).toBe(404);

    expect((await http().post(`/api/moderation/comments/${rude.id}/unhide`).set(mod.auth).send({ reason: 'Appeal' })).status).toBe(200);
    expect((await thread()).data.map((c: { id: string }) => c.id)).toEqual([kept.id, rude.id]);
    expect(await count()).toBe(2);
    const actions = (await http().get('/api/moderation/log').set(mod.auth)).body.data.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 2)).toEqual(['unhide_comment', 'hide_comment']);
    expect((await http().post('/api/moderation/comments/nope/hide').set(mod.auth).send({ reason: 'x' })).status).toBe(404);
  });

  it('suspends a member for a time with an event auth acts on; never self, staff only by an admin, admins never', async () => {
    const res = await http().post(`/api/moderation/suspensions/${ayse.id}`).set(mod.auth).send({ hours: 24, reason: 'Spam' });
    expect(res.status).toBe(201);
    const until = Date.parse(res.body.data.until);
    expect(until - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await svc.settle();
    expect(svc.emitted('moderation.member_suspended')).toEqual([{ userId: ayse.id, until: res.body.data.until, reason: 'Spam' }]);
    const suspend = (by: Member, userId: string) => http().post(`/api/moderation/suspensions/${userId}`).set(by.auth).send({ hours: 1, reason: 'x' });
    expect((await suspend(mod, mod.id)).status).toBe(400);
    expect((await suspend(mod, 'nobody')).status).toBe(404);
    expect((await suspend(mod, admin.id)).status).toBe(403);
    const other = await member(svc, 'othermod');
    await svc.publish('moderation.role_changed', { userId: other.id, role: 'moderator' });
    expect((await suspend(mod, other.id)).status).toBe(403);
    expect((await suspend(admin, other.id)).status).toBe(201);
    for (const body of [{ hours: 0, reason: 'x' }, { hours: 1.5, reason: 'x' }, { hours: 1 }, { hours: 1, reason: 'x', user_id: ayse.id }]) {
      expect((await http().post(`/api/moderation/suspensions/${ayse.id}`).set(mod.auth).send(body)).status).toBe(400);
    }
  });

  it('lets an admin appoint and remove a moderator, on the staff list and in the log', async () => {
    const res = await http().put(`/api/moderation/roles/${mehmet.id}`).set(admin.auth).send({ role: 'moderator', reason: 'Helpful' });
    expect(res.status).toBe(200);
    await svc.settle();
    expect(svc.emitted('moderation.role_changed')).toContainEqual({ userId: mehmet.id, role: 'moderator' });
    const staff = (await http().get('/api/moderation/staff').set(admin.auth)).body.data;
    expect(staff).toContainEqual({ user: expect.objectContaining({ id: mehmet.id }), role: 'moderator' });
    await http().put(`/api/moderation/roles/${mehmet.id}`).set(admin.auth).send({ role: 'member', reason: 'Stepped down' });
    await svc.settle();
    expect((await http().get('/api/moderation/staff').set(admin.auth)).body.data.map((s: { user: { id: string } }) => s.user.id)).not.toContain(mehmet.id);
    expect((await http().put(`/api/moderation/roles/${mehmet.id}`).set(admin.auth).send({ role: 'admin', reason: 'x' })).status).toBe(400);
    expect((await http().put(`/api/moderation/roles/${admin.id}`).set(admin.auth).send({ role: 'member', reason: 'x' })).status).toBe(400);
    const log = (await http().get('/api/moderation/log').set(mod.auth)).body.data;
    expect(log[0]).toEqual(expect.objectContaining({ action: 'role', role: 'member', reason: 'Stepped down', target_user: expect.objectContaining({ id: mehmet.id }) }));
  });
});
