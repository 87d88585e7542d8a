import { createTestService, TestService } from '@app/testing';
import { conversationsCollection, memberStatesCollection } from '../conversations/conversation.collection';
import { messagesCollection } from '../messages/message.collection';
import { reactionsCollection } from '../messages/reaction.collection';
import { registerMember, TestMember } from '../messaging.fixture';
import { messagingService } from '../messaging.service-definition';

describe('messaging erasure (user.deleted)', () => {
  let svc: TestService;
  let gone: TestMember;
  let ali: TestMember;
  let burak: TestMember;
  let pairId: string;
  let groupId: string;
  let soloGroupId: string;

  const conversation = async (by: TestMember, memberIds: string[]) =>
    (await svc.http().post('/api/messages/conversations').set(by.auth).send({ memberIds })).body.data.id as string;
  const send = async (by: TestMember, id: string, content: string) =>
    (await svc.http().post(`/api/messages/conversations/${id}/messages`).set(by.auth).send({ content })).body.data.id as string;
  const history = async (by: TestMember, id: string) =>
    (await svc.http().get(`/api/messages/conversations/${id}/messages`).set(by.auth)).body.data as { sender: { display_name: string }; content: string; reactions: unknown[] }[];

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    [gone, ali, burak] = [await registerMember(svc, 'gone'), await registerMember(svc, 'ali'), await registerMember(svc, 'burak')];
    pairId = await conversation(ali, [gone.id]);
    groupId = await conversation(gone, [ali.id, burak.id]);
    await send(ali, pairId, 'Hello');
    const secret = await send(gone, pairId, 'My secret plan');
    await svc.http().post(`/api/messages/${secret}/reactions`).set(ali.auth).send({ emoji: '😂' });
    const alis = await send(ali, groupId, 'Group hi');
    await svc.http().post(`/api/messages/${alis}/reactions`).set(gone.auth).send({ emoji: '👍' });
    await send(gone, groupId, 'Group secret');
    // A group whose other members already left: it goes with its last member.
    soloGroupId = await conversation(gone, [ali.id, burak.id]);
    await svc.store.collection(conversationsCollection).updateOne({ _id: soloGroupId }, { $set: { member_ids: [gone.id] } });
  });

  afterAll(() => svc.close());

  it('blanks their messages under "Deleted member", drops their reactions and group memberships; twice is the same', async () => {
    const unreadBefore = (await svc.store.collection(memberStatesCollection).findById(`${pairId}:${ali.id}`))?.unread_count;
    for (let delivery = 0; delivery < 2; delivery++) {
      await svc.publish('user.deleted', { userId: gone.id });
      const pair = await history(ali, pairId);
      expect(pair.map((m) => [m.sender.display_name, m.content])).toEqual([
        ['Ali', 'Hello'],
        ['Deleted member', ''],
      ]);
      expect(pair[1].reactions).toEqual([]);
      expect(JSON.stringify(await history(burak, groupId))).not.toMatch(/secret|👍/);
      expect(await svc.store.collection(messagesCollection).count({ sender_id: gone.id, content: { $ne: '' } })).toBe(0);
      expect(await svc.store.collection(reactionsCollection).count({ user_id: gone.id })).toBe(0);
      expect(await svc.store.collection(memberStatesCollection).count({ user_id: gone.id })).toBe(0);
      expect((await svc.store.collection(conversationsCollection).findById(groupId))?.member_ids).toEqual([ali.id, burak.id]);
      expect(await svc.store.collection(conversationsCollection).findById(soloGroupId)).toBeNull();
      const list = (await svc.http().get('/api/messages/conversations').set(ali.auth)).body.data as { id: string; last_message: { content: string } | null; unread_count: number }[];
      expect(list.find((c) => c.id === groupId)?.last_message?.content).toBe('');
      expect((await svc.store.collection(memberStatesCollection).findById(`${pairId}:${ali.id}`))?.unread_count).toBe(unreadBefore);
    }
  });

  it('starts no new conversation with a deleted member', async () => {
    const res = await svc.http().post('/api/messages/conversations').set(burak.auth).send({ memberIds: [gone.id] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('memberIds');
  });

  it('takes no new message into the one-to-one conversation with a deleted member (410), while group chats go on', async () => {
    const res = await svc.http().post(`/api/messages/conversations/${pairId}/messages`).set(ali.auth).send({ content: 'Are you there?' });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ success: false, code: 'RECIPIENT_DELETED', message: 'This member deleted their account' });
    expect(JSON.stringify(await history(ali, pairId))).not.toMatch(/Are you there/);
    expect(await send(ali, groupId, 'Still here')).toEqual(expect.any(String));
  });

  it('ignores a late squad join or message of theirs and refuses their still-signed token (issue 31 §2)', async () => {
    await svc.publish('squad.created', { squadId: 'sq-late', name: 'Late Squad', category: 'Food', creatorId: ali.id }, 'sq-late', ali.id);
    const at = new Date().toISOString();
    await svc.publish('squad.member_joined', { squadId: 'sq-late', squadName: 'Late Squad', userId: gone.id, role: 'member', joined_at: at }, 'sq-late', gone.id);
    await svc.publish('squad.member_joined', { squadId: 'sq-late', squadName: 'Late Squad', userId: burak.id, role: 'member', joined_at: at }, 'sq-late', burak.id);
    const chat = await svc.store.collection(conversationsCollection).findOne({ squad_id: 'sq-late' });
    expect(chat?.member_ids).toContain(burak.id);
    expect(chat?.member_ids).not.toContain(gone.id);
    const before = await svc.store.collection(messagesCollection).count({ conversation_id: groupId });
    const res = await svc.http().post(`/api/messages/conversations/${groupId}/messages`).set(gone.auth).send({ content: 'Late words' });
    expect(res.status).toBe(401);
    expect(await svc.store.collection(messagesCollection).count({ conversation_id: groupId })).toBe(before);
  });
});
