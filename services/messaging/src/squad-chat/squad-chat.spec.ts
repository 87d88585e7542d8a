import { createTestService, TestService } from '@app/testing';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';

describe('messaging: squad chat (events and HTTP)', () => {
  let svc: TestService;
  let admin: TestMember;
  let member: TestMember;
  let outsider: TestMember;

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [admin, member, outsider] = await Promise.all(['admin', 'member', 'outsider'].map((u) => registerMember(svc, u)));
  });

  afterAll(() => svc.close());

  const open = (who: TestMember, squadId: string) =>
    svc.http().get(`/api/messages/squads/${squadId}/conversation`).set(who.auth);
  const joined = (squadId: string, userId: string, role: 'admin' | 'member' = 'member') =>
    svc.publish('squad.member_joined', { squadId, squadName: 'Keyboard Nerds', userId, role, joined_at: new Date().toISOString() }, squadId);

  it('makes one group conversation per squad, named after it, following squad.created and member_joined', async () => {
    await svc.publish('squad.created', { squadId: 'sq1', name: 'Keyboard Nerds', category: 'Technology', creatorId: admin.id }, 'sq1');
    await joined('sq1', admin.id, 'admin');
    await joined('sq1', member.id);
    await joined('sq1', member.id); // redelivered: no duplicate member

    const res = await open(member, 'sq1');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Keyboard Nerds', is_group: true, squad_id: 'sq1', unread_count: 0 });
    expect(res.body.data.members.map((m: { id: string }) => m.id)).toEqual([admin.id, member.id]);
    const created = svc.emitted('conversation.created').filter((e) => e.squadId === 'sq1');
    expect(created).toEqual([{ conversationId: res.body.data.id, memberIds: [admin.id], createdBy: admin.id, squadId: 'sq1' }]);

    const list = await svc.http().get('/api/messages/conversations').set(member.auth);
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(res.body.data.id);
  });

  it('lets squad members chat and refuses everyone else (403), unknown squads 404', async () => {
    const chat = (await open(admin, 'sq1')).body.data.id as string;
    const sent = await svc.http().post(`/api/messages/conversations/${chat}/messages`).set(member.auth).send({ content: 'Hi all' });
    expect(sent.status).toBe(201);
    await svc.settle();
    expect(svc.emitted('message.sent').at(-1)?.memberIds).toEqual([admin.id, member.id]);

    const denied = await open(outsider, 'sq1');
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('Only squad members can open the squad chat');
    expect((await svc.http().get(`/api/messages/conversations/${chat}/messages`).set(outsider.auth)).status).toBe(403);
    expect((await open(outsider, 'no-such-squad')).status).toBe(404);
  });

  it('follows squad.updated: the chat takes the new name, a replay is harmless, an older rename arriving late is ignored', async () => {
    const name = async () => (await open(admin, 'sq1')).body.data.name as string;
    const renamed = { squadId: 'sq1', name: 'Mechanical Keyboards', category: 'Technology', updated_at: new Date().toISOString() };
    await svc.publish('squad.updated', renamed, 'sq1');
    expect(await name()).toBe('Mechanical Keyboards');
    await svc.publish('squad.updated', renamed, 'sq1'); // redelivered (as a new envelope): same name
    expect(await name()).toBe('Mechanical Keyboards');

    // A rename made earlier than the one shown, delivered late (another stream or partition): ignored.
    const earlier = new Date(Date.parse(renamed.updated_at) - 60_000).toISOString();
    await svc.publish('squad.updated', { ...renamed, name: 'Keyboard Nerds (old)', updated_at: earlier }, 'sq1');
    expect(await name()).toBe('Mechanical Keyboards');

    // Every member sees it in their conversation list.
    const list = await svc.http().get('/api/messages/conversations').set(member.auth);
    expect(list.body.data.find((c: { squad_id: string | null }) => c.squad_id === 'sq1')).toMatchObject({ name: 'Mechanical Keyboards' });

    // A squad with no chat here (deleted, or never seen): nothing to rename, nothing made.
    await svc.publish('squad.updated', { ...renamed, squadId: 'sq-unknown' }, 'sq-unknown');
    expect((await open(admin, 'sq-unknown')).status).toBe(404);
  });

  it('drops a member who left (and again on redelivery) from the chat', async () => {
    const chat = (await open(admin, 'sq1')).body.data.id as string;
    const left = { squadId: 'sq1', squadName: 'Keyboard Nerds', userId: member.id, reason: 'left' as const };
    await svc.publish('squad.member_left', left, 'sq1');
    await svc.publish('squad.member_left', left, 'sq1');
    expect((await open(member, 'sq1')).status).toBe(403);
    const write = await svc.http().post(`/api/messages/conversations/${chat}/messages`).set(member.auth).send({ content: 'bye?' });
    expect(write.status).toBe(403);
    const members = await svc.http().get(`/api/messages/conversations/${chat}/members`).set(admin.auth);
    expect(members.body.data.map((m: { id: string }) => m.id)).toEqual([admin.id]);
  });

  it('removes the chat when the squad is deleted', async () => {
    const chat = (await open(admin, 'sq1')).body.data.id as string;
    await svc.publish('squad.deleted', { squadId: 'sq1', name: 'Keyboard Nerds', memberIds: [admin.id] }, 'sq1');
    expect((await open(admin, 'sq1')).status).toBe(404);
    expect((await svc.http().get(`/api/messages/conversations/${chat}/messages`).set(admin.auth)).status).toBe(404);
    const list = await svc.http().get('/api/messages/conversations').set(admin.auth);
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(chat);
  });
});
