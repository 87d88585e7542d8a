import { SquadsFixture, TestMember } from '../squads.fixture';

describe('squads: roles, leaving and removal (HTTP)', () => {
  let fx: SquadsFixture;
  let admin: TestMember;
  let mod: TestMember;
  let member: TestMember;
  let outsider: TestMember;

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    admin = await fx.member('root', 'Root Admin');
    mod = await fx.member('mod', 'Moderator');
    member = await fx.member('member', 'Member');
    outsider = await fx.member('outsider', 'Outsider');
  });

  afterAll(() => fx.close());

  /** A squad with admin, mod (moderator) and member. */
  async function squad(name: string): Promise<string> {
    const id = await fx.createSquad(admin, { name });
    await fx.join(admin, mod, id);
    await fx.join(admin, member, id);
    expect((await fx.setRole(admin, id, mod.id, 'moderator')).status).toBe(200);
    return id;
  }
  const leave = (who: TestMember, id: string) => fx.http().post(`/api/squads/${id}/leave`).set(who.auth);
  const roleIn = async (id: string, userId: string) => {
    const res = await fx.http().get(`/api/squads/${id}`).set(admin.auth);
    return res.body.data.members.find((m: { id: string }) => m.id === userId)?.role ?? null;
  };

  describe('POST /squads/{id}/leave', () => {
    it('lets members and moderators leave, announces it, and refuses admins', async () => {
      const id = await squad('Leavers');

      const left = await leave(member, id);
      expect(left.status).toBe(200);
      expect(left.body.message).toBe('You have left the squad');
      expect((await fx.http().get(`/api/squads/${id}`).set(member.auth)).body.data).toMatchObject({
        is_member: false,
        user_role: null,
        join_request_status: null,
        member_count: 2,
      });
      expect((await leave(mod, id)).status).toBe(200);

      const adminLeaves = await leave(admin, id);
      expect(adminLeaves.status).toBe(403);
      expect(adminLeaves.body.message).toBe('Admins cannot leave the squad');
      expect(await roleIn(id, admin.id)).toBe('admin');

      await fx.svc.settle();
      expect(fx.svc.emitted('squad.member_left')).toEqual(
        expect.arrayContaining([
          { squadId: id, squadName: 'Leavers', userId: member.id, reason: 'left' },
          { squadId: id, squadName: 'Leavers', userId: mod.id, reason: 'left' },
        ]),
      );
    });

    it('answers a non-member with 409 and a missing squad with 404', async () => {
      const id = await squad('Strangers');
      const res = await leave(outsider, id);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('You are not a member of this squad');
      expect((await leave(member, 'missing')).status).toBe(404);
    });

    it('lets a former member request to join again', async () => {
      const id = await squad('Returners');
      await leave(member, id);
      expect((await fx.http().post(`/api/squads/${id}/request-join`).set(member.auth).send({})).status).toBe(201);
    });
  });

  describe('PUT /squads/{id}/members/{userId}', () => {
    it('lets an admin promote and demote, and shows the new role', async () => {
      const id = await squad('Roles');
      const promoted = await fx.setRole(admin, id, member.id, 'moderator');
      expect(promoted.status).toBe(200);
      expect(promoted.body.data).toMatchObject({ id: member.id, username: 'member', role: 'moderator' });
      expect(await roleIn(id, member.id)).toBe('moderator');

      expect((await fx.setRole(admin, id, member.id, 'member')).status).toBe(200);
      expect(await roleIn(id, member.id)).toBe('member');
    });

    it('announces a role change to the member and the managers after it, once per change (issue 43 §4)', async () => {
      const id = await squad('Live roles');
      const changes = () => fx.svc.emitted('squad.member_role_changed').filter((e) => e.squadId === id);
      await fx.svc.settle();
      const sorted = (ids: string[]) => [...ids].sort();
      expect(changes()).toEqual([{ squadId: id, squadName: 'Live roles', userId: mod.id, role: 'moderator', changedBy: admin.id, managerIds: expect.any(Array) }]);
      expect(sorted(changes()[0].managerIds)).toEqual(sorted([admin.id, mod.id]));
      expect((await fx.setRole(admin, id, member.id, 'moderator')).status).toBe(200);
      expect((await fx.setRole(admin, id, member.id, 'moderator')).status).toBe(200);
      expect((await fx.setRole(admin, id, mod.id, 'member')).status).toBe(200);
      await fx.svc.settle();
      // the second, unchanged "moderator" is no change: nothing announced
      expect(changes().map((e) => [e.userId, e.role, sorted(e.managerIds)])).toEqual([
        [mod.id, 'moderator', sorted([admin.id, mod.id])],
        [member.id, 'moderator', sorted([admin.id, mod.id, member.id])],
        [mod.id, 'member', sorted([admin.id, member.id])],
      ]);
      expect((await fx.setRole(admin, id, admin.id, 'member')).status).toBe(409);
      await fx.svc.settle();
      expect(changes()).toHaveLength(3);
    });

    it('refuses moderators, members and outsiders with 403', async () => {
      const id = await squad('Only admins');
      for (const who of [mod, member, outsider]) {
        const res = await fx.setRole(who, id, member.id, 'admin');
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('Only squad admins can manage members');
      }
      expect(await roleIn(id, member.id)).toBe('member');
    });

    it('answers a role-gated route with 403 (404 for no squad) before it reads the body or the query (issue 31 §7)', async () => {
      const id = await squad('Shape kept');
      const requestId = await fx.requestJoin(outsider, id, 'hi');
      const routes = (squadId: string) => [
        { call: () => fx.http().put(`/api/squads/${squadId}`).send({ name: 7, unknown: true }), refusal: 'Only squad admins can update the squad' },
        { call: () => fx.http().put(`/api/squads/${squadId}/members/${member.id}`).send({ role: 'owner' }), refusal: 'Only squad admins can manage members' },
        { call: () => fx.http().get(`/api/squads/${squadId}/join-requests?status=maybe&unknown=1`), refusal: 'Only squad admins and moderators can view join requests' },
        {
          call: () => fx.http().post(`/api/squads/${squadId}/join-requests/${requestId}`).send({ action: 'shrug' }),
          refusal: 'Only squad admins and moderators can approve or reject join requests',
        },
      ];
      for (const { call, refusal } of routes(id)) {
        for (const who of [member, outsider]) {
          const res = await call().set(who.auth);
          expect([res.status, res.body.message]).toEqual([403, refusal]);
        }
      }
      for (const { call } of routes('no-such-squad')) expect((await call().set(member.auth)).status).toBe(404);
      // The managers still get the field errors.
      for (const { call } of routes(id)) expect((await call().set(admin.auth)).status).toBe(400);
    });

    it('never demotes the last admin, but allows it once another admin exists', async () => {
      const id = await squad('Last admin');
      const alone = await fx.setRole(admin, id, admin.id, 'member');
      expect(alone.status).toBe(409);
      expect(alone.body.message).toBe('A squad needs at least one admin: make another member admin first');
      expect(await roleIn(id, admin.id)).toBe('admin');

      expect((await fx.setRole(admin, id, mod.id, 'admin')).status).toBe(200);
      expect((await fx.setRole(admin, id, admin.id, 'moderator')).status).toBe(200);
      expect(await roleIn(id, admin.id)).toBe('moderator');
      // The former admin, now moderator, may leave; the new admin may not.
      expect((await leave(admin, id)).status).toBe(200);
      expect((await leave(mod, id)).status).toBe(403);
    });

    it('keeps one admin when two admins demote each other at the same moment', async () => {
      const id = await squad('Duel');
      await fx.setRole(admin, id, mod.id, 'admin');
      await Promise.all([fx.setRole(admin, id, mod.id, 'member'), fx.setRole(mod, id, admin.id, 'member')]);
      const res = await fx.http().get(`/api/squads/${id}`).set(member.auth);
      const admins = res.body.data.members.filter((m: { role: string }) => m.role === 'admin');
      expect(admins.length).toBeGreaterThanOrEqual(1);
    });

    it('answers an unknown member with 404 and a bad role with 400', async () => {
      const id = await squad('Validation');
      const unknown = await fx.setRole(admin, id, outsider.id, 'moderator');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Member not found');
      const bad = await fx.setRole(admin, id, member.id, 'owner');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('role must be admin, moderator or member');
    });
  });

  describe('DELETE /squads/{id}/members/{userId}', () => {
    it('lets an admin remove a member or a moderator and announces it as removed', async () => {
      const id = await squad('Removals');
      const res = await fx.http().delete(`/api/squads/${id}/members/${member.id}`).set(admin.auth);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Member removed from the squad');
      expect((await fx.http().delete(`/api/squads/${id}/members/${mod.id}`).set(admin.auth)).status).toBe(200);
      expect(await roleIn(id, member.id)).toBeNull();
      await fx.svc.settle();
      expect(fx.svc.emitted('squad.member_left')).toContainEqual({
        squadId: id,
        squadName: 'Removals',
        userId: member.id,
        reason: 'removed',
      });
      expect((await fx.http().delete(`/api/squads/${id}/members/${member.id}`).set(admin.auth)).status).toBe(404);
    });

    it('refuses non-admins, removing an admin and removing oneself', async () => {
      const id = await squad('Protected');
      const byMod = await fx.http().delete(`/api/squads/${id}/members/${member.id}`).set(mod.auth);
      expect(byMod.status).toBe(403);

      const self = await fx.http().delete(`/api/squads/${id}/members/${admin.id}`).set(admin.auth);
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Admins cannot leave the squad');

      await fx.setRole(admin, id, mod.id, 'admin');
      const otherAdmin = await fx.http().delete(`/api/squads/${id}/members/${mod.id}`).set(admin.auth);
      expect(otherAdmin.status).toBe(409);
      expect(otherAdmin.body.message).toBe('Admins cannot be removed; change their role first');
      expect(await roleIn(id, mod.id)).toBe('admin');
    });
  });
});
