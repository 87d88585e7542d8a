import { joinRequestsCollection } from '../join-requests/join-request.collection';
import { membersCollection } from '../members/member.collection';
import { squadsCollection } from '../squads/squad.collection';
import { SquadsFixture, TestMember } from '../squads.fixture';

describe('squads erasure (user.deleted)', () => {
  let fx: SquadsFixture;
  let gone: TestMember;
  let ali: TestMember;
  let cem: TestMember;
  let sharedId: string;
  let aloneId: string;
  let alisId: string;

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    [gone, ali, cem] = [await fx.member('gone'), await fx.member('ali'), await fx.member('cem')];
    sharedId = await fx.createSquad(gone, { name: 'Shared' });
    await fx.join(gone, ali, sharedId);
    await fx.join(gone, cem, sharedId);
    aloneId = await fx.createSquad(gone, { name: 'Alone' });
    alisId = await fx.createSquad(ali, { name: 'Alis' });
    await fx.join(ali, gone, alisId);
    const otherId = await fx.createSquad(cem, { name: 'Pending' });
    await fx.requestJoin(gone, otherId);
  });

  afterAll(() => fx.close());

  const squad = (id: string, as: TestMember) => fx.http().get(`/api/squads/${id}`).set(as.auth);

  it('hands a solely administered squad to its longest-standing member, closes an empty one and leaves the rest; twice is the same', async () => {
    for (let delivery = 0; delivery < 2; delivery++) {
      await fx.svc.publish('user.deleted', { userId: gone.id });
      const shared = await squad(sharedId, ali);
      expect(shared.body.data).toMatchObject({ member_count: 2, user_role: 'admin' });
      expect((await squad(sharedId, cem)).body.data.user_role).toBe('member');
      expect((await squad(alisId, ali)).body.data.member_count).toBe(1);
      expect((await squad(aloneId, ali)).status).toBe(404);
      expect(await fx.svc.store.collection(membersCollection).count({ user_id: gone.id })).toBe(0);
      expect(await fx.svc.store.collection(joinRequestsCollection).count({ user_id: gone.id })).toBe(0);
      expect(await fx.svc.store.collection(squadsCollection).count({ _id: aloneId })).toBe(0);
    }
    await fx.svc.settle();
    expect(fx.svc.emitted('squad.deleted')).toEqual([{ squadId: aloneId, name: 'Alone', memberIds: [] }]);
  });

  it('keeps the heir a crash had already promoted and promotes no one else', async () => {
    const boss = await fx.member('boss');
    const first = await fx.member('first');
    const second = await fx.member('second');
    const id = await fx.createSquad(boss, { name: 'Resumed' });
    await fx.join(boss, first, id);
    await fx.join(boss, second, id);
    // The first run promoted `first`, then stopped before the membership went.
    await fx.svc.store.collection(membersCollection).updateOne({ squad_id: id, user_id: first.id }, { $set: { role: 'admin' } });
    await fx.svc.publish('user.deleted', { userId: boss.id });
    const roles = (await fx.svc.store.collection(membersCollection).find({ squad_id: id })).map((m) => [m.user_id, m.role]);
    expect(roles.sort()).toEqual([[first.id, 'admin'], [second.id, 'member']].sort());
  });

  it('refuses a late join or join request with their still-signed token (issue 31 §2)', async () => {
    await fx.svc.publish('user.deleted', { userId: gone.id });
    const join = await fx.http().post(`/api/squads/${alisId}/request-join`).set(gone.auth).send({ message: 'late' });
    expect(join.status).toBe(401);
    const create = await fx.http().post('/api/squads').set(gone.auth).send({ name: 'Ghost Squad', category: 'Food' });
    expect(create.status).toBe(401);
    expect(await fx.svc.store.collection(membersCollection).count({ user_id: gone.id })).toBe(0);
    expect(await fx.svc.store.collection(joinRequestsCollection).count({ user_id: gone.id })).toBe(0);
  });
});
