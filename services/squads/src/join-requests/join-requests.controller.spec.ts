import { SquadsFixture, TestMember } from '../squads.fixture';

describe('squads: join requests (HTTP)', () => {
  let fx: SquadsFixture;
  let admin: TestMember;
  let moderator: TestMember;
  let member: TestMember;
  let asker: TestMember;
  let squadId: string;

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    admin = await fx.member('admin', 'Ada Admin');
    moderator = await fx.member('moddy', 'Mod Erator');
    member = await fx.member('plain', 'Plain Member');
    asker = await fx.member('asker', 'Asker Person', 'https://img.example/asker.png');
    squadId = await fx.createSquad(admin, { name: 'Board Games', category: 'Gaming' });
    await fx.join(admin, moderator, squadId);
    await fx.setRole(admin, squadId, moderator.id, 'moderator');
    await fx.join(admin, member, squadId);
  });

  afterAll(() => fx.close());

  const detail = (viewer: TestMember, id = squadId) => fx.http().get(`/api/squads/${id}`).set(viewer.auth);
  const listRequests = (viewer: TestMember, qs = '', id = squadId) =>
    fx.http().get(`/api/squads/${id}/join-requests${qs}`).set(viewer.auth);

  it('walks none -> pending -> rejected -> pending -> approved', async () => {
    expect((await detail(asker)).body.data.join_request_status).toBeNull();

    const first = await fx
      .http()
      .post(`/api/squads/${squadId}/request-join`)
      .set(asker.auth)
      .send({ message: '  I love Catan  ' });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe('Join request sent');
    expect(first.body.data).toMatchObject({ status: 'pending', message: 'I love Catan', squad_id: squadId });
    expect((await detail(asker)).body.data).toMatchObject({ join_request_status: 'pending', is_member: false });

    await fx.svc.settle();
    const announced = fx.svc.emitted('squad.join_requested').find((e) => e.requestId === first.body.data.id);
    expect(announced).toMatchObject({ squadId, squadName: 'Board Games', userId: asker.id, message: 'I love Catan' });
    expect([...(announced?.managerIds ?? [])].sort()).toEqual([admin.id, moderator.id].sort());

    const again = await fx.http().post(`/api/squads/${squadId}/request-join`).set(asker.auth).send({});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You already have a pending request to join this squad');

    const rejected = await fx.decide(moderator, squadId, first.body.data.id, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe('Join request rejected');
    expect(rejected.body.data.status).toBe('rejected');
    expect((await detail(asker)).body.data.join_request_status).toBe('rejected');

    const retry = await fx.http().post(`/api/squads/${squadId}/request-join`).set(asker.auth).send({ message: 'Please?' });
    expect(retry.status).toBe(201);
    expect((await detail(asker)).body.data.join_request_status).toBe('pending');

    const approved = await fx.decide(admin, squadId, retry.body.data.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Join request approved');
    const after = (await detail(asker)).body.data;
    expect(after).toMatchObject({ is_member: true, user_role: 'member', join_request_status: null, member_count: 4 });
    expect(after.members.find((m: { id: string }) => m.id === asker.id)).toMatchObject({
      username: 'asker',
      display_name: 'Asker Person',
      profile_image_url: 'https://img.example/asker.png',
      role: 'member',
    });

    await fx.svc.settle();
    expect(fx.svc.emitted('squad.join_decided')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: first.body.data.id, decision: 'rejected', decidedBy: moderator.id, userId: asker.id }),
        expect.objectContaining({ requestId: retry.body.data.id, decision: 'approved', decidedBy: admin.id, userId: asker.id }),
      ]),
    );
    // the managers' open lists follow the decision live (issue 43 §4)
    const approval = fx.svc.emitted('squad.join_decided').find((e) => e.requestId === retry.body.data.id);
    expect([...(approval?.managerIds ?? [])].sort()).toEqual([admin.id, moderator.id].sort());
    expect(fx.svc.emitted('squad.member_joined')).toContainEqual(
      expect.objectContaining({ squadId, userId: asker.id, role: 'member' }),
    );

    const asMember = await fx.http().post(`/api/squads/${squadId}/request-join`).set(asker.auth).send({});
    expect(asMember.status).toBe(409);
    expect(asMember.body.message).toBe('You are already a member of this squad');
  });

  it('keeps the message only when it is non-empty after trimming, and at most 250 characters', async () => {
    const s = await fx.createSquad(admin, { name: 'Messages' });
    const people = await Promise.all(['m_a', 'm_b', 'm_c', 'm_d', 'm_e'].map((n) => fx.member(n)));

    const blank = await fx.http().post(`/api/squads/${s}/request-join`).set(people[0].auth).send({ message: '   ' });
    expect(blank.status).toBe(201);
    expect(blank.body.data.message).toBeNull();

    const none = await fx.http().post(`/api/squads/${s}/request-join`).set(people[1].auth).send({});
    expect(none.body.data.message).toBeNull();

    const exact = await fx.http().post(`/api/squads/${s}/request-join`).set(people[2].auth).send({ message: ` ${'a'.repeat(250)} ` });
    expect(exact.status).toBe(201);
    expect(exact.body.data.message).toHaveLength(250);

    const long = await fx.http().post(`/api/squads/${s}/request-join`).set(people[3].auth).send({ message: 'a'.repeat(251) });
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toEqual({ field: 'message', messages: ['message must be at most 250 characters'] });

    const wrongType = await fx.http().post(`/api/squads/${s}/request-join`).set(people[4].auth).send({ message: 5 });
    expect(wrongType.status).toBe(400);
  });

  it('lists requests for admins and moderators with the requester card, date and message; others get 403', async () => {
    const s = await fx.createSquad(admin, { name: 'Listing' });
    await fx.join(admin, moderator, s);
    await fx.setRole(admin, s, moderator.id, 'moderator');
    await fx.join(admin, member, s);
    const requestId = await fx.requestJoin(asker, s, 'Hello there');

    for (const manager of [admin, moderator]) {
      const res = await listRequests(manager, '?status=pending', s);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        {
          id: requestId,
          squad_id: s,
          status: 'pending',
          message: 'Hello there',
          created_at: expect.any(String),
          decided_at: null,
          user: { id: asker.id, display_name: 'Asker Person', username: 'asker', profile_image_url: 'https://img.example/asker.png' },
        },
      ]);
      expect(res.body.meta).toMatchObject({ total: 1, page: 1 });
    }
    // status defaults to pending
    expect((await listRequests(admin, '', s)).body.data).toHaveLength(1);

    for (const outsider of [member, asker]) {
      const res = await listRequests(outsider, '', s);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only squad admins and moderators can view join requests');
    }
    expect((await listRequests(admin, '?status=maybe', s)).status).toBe(400);
    expect((await listRequests(admin, '', 'missing')).status).toBe(404);

    await fx.decide(admin, s, requestId, 'reject');
    expect((await listRequests(admin, '?status=pending', s)).body.data).toEqual([]);
    expect((await listRequests(admin, '?status=rejected', s)).body.data.map((r: { id: string }) => r.id)).toEqual([requestId]);
  });

  it('lets only managers decide, once, with a valid action on a request of this squad', async () => {
    const s = await fx.createSquad(admin, { name: 'Deciding' });
    await fx.join(admin, member, s);
    const requestId = await fx.requestJoin(asker, s);

    const byMember = await fx.decide(member, s, requestId, 'approve');
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe('Only squad admins and moderators can approve or reject join requests');
    expect((await fx.decide(asker, s, requestId, 'approve')).status).toBe(403);

    const badAction = await fx.decide(admin, s, requestId, 'accept');
    expect(badAction.status).toBe(400);
    expect(badAction.body.message).toBe('action must be approve or reject');

    const other = await fx.createSquad(admin, { name: 'Other' });
    const wrongSquad = await fx.decide(admin, other, requestId, 'approve');
    expect(wrongSquad.status).toBe(404);
    expect(wrongSquad.body.message).toBe('Join request not found');

    expect((await fx.decide(admin, s, requestId, 'approve')).status).toBe(200);
    const twice = await fx.decide(admin, s, requestId, 'reject');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This join request has already been approved');

    expect((await fx.http().post('/api/squads/missing/request-join').set(asker.auth).send({})).status).toBe(404);
  });

  it('keeps a single pending request when duplicates race', async () => {
    const s = await fx.createSquad(admin, { name: 'Racing' });
    const racer = await fx.member('racer');
    const results = await Promise.all(
      [1, 2, 3].map(() => fx.http().post(`/api/squads/${s}/request-join`).set(racer.auth).send({})),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await listRequests(admin, '', s)).body.data).toHaveLength(1);
  });

  it('refuses a member blocked by any admin with 403, and accepts them again once unblocked', async () => {
    const s = await fx.createSquad(admin, { name: 'Blocky' });
    const coAdmin = await fx.member('coadmin');
    await fx.join(admin, coAdmin, s);
    await fx.setRole(admin, s, coAdmin.id, 'admin');
    const troll = await fx.member('troll');

    await fx.svc.publish('block.created', { blockerId: coAdmin.id, blockedId: troll.id });
    await fx.svc.publish('block.created', { blockerId: coAdmin.id, blockedId: troll.id }); // redelivery is harmless
    const refused = await fx.http().post(`/api/squads/${s}/request-join`).set(troll.auth).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You cannot request to join this squad: one of its admins has blocked you');

    // A block by a plain member does not count.
    await fx.svc.publish('block.removed', { blockerId: coAdmin.id, blockedId: troll.id });
    await fx.svc.publish('block.created', { blockerId: member.id, blockedId: troll.id });
    await fx.join(admin, member, s);
    expect((await fx.http().post(`/api/squads/${s}/request-join`).set(troll.auth).send({})).status).toBe(201);
  });
});
