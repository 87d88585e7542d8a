import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { SqliteStore } from '@app/store';
import { createTestService, testConfig, TestService } from '@app/testing';
import { conversationsCollection, memberStateId, memberStatesCollection } from '../conversations/conversation.collection';
import { messagesCollection } from '../messages/message.collection';
import { messagingService } from '../messaging.service-definition';
import { registerMember, TestMember } from '../messaging.fixture';
import { MessagingCountersRepair } from './counters.repair';

const T = (s: number) => `2030-01-01T00:00:0${s}.000Z`;

describe('messaging counter repair', () => {
  let svc: TestService;
  let repair: MessagingCountersRepair;
  let ayse: TestMember;
  let burak: TestMember;
  let cem: TestMember;
  let conversationId: string;

  const states = () => svc.store.collection(memberStatesCollection);
  const unread = async (m: TestMember, id = conversationId) => (await states().findById(memberStateId(id, m.id)))?.unread_count;
  const send = (m: TestMember, content: string) =>
    svc.http().post(`/api/messages/conversations/${conversationId}/messages`).set(m.auth).send({ content }).expect(201);

  beforeAll(async () => {
    svc = await createTestService(messagingService);
    repair = svc.app.get(MessagingCountersRepair);
    [ayse, burak, cem] = await Promise.all(['ayse', 'burak', 'cem'].map((u) => registerMember(svc, u)));
    const res = await svc.http().post('/api/messages/conversations').set(ayse.auth).send({ memberIds: [burak.id, cem.id] });
    conversationId = res.body.data.id;
    await send(ayse, 'one');
    await send(ayse, 'two');
    await send(burak, 'three');
    await svc.http().post(`/api/messages/conversations/${conversationId}/read`).set(cem.auth).expect(200);
    await send(ayse, 'four');
  });

  afterAll(() => svc.close());

  it('leaves unread counts that agree with the messages alone', async () => {
    expect([await unread(ayse), await unread(burak), await unread(cem)]).toEqual([0, 1, 1]);
    const before = await states().find({});
    const conversationBefore = await svc.store.collection(conversationsCollection).findById(conversationId);
    expect(await repair.repair()).toEqual({ 'conversation_members.unread_count': 0, 'conversations.last_message': 0 });
    expect(await states().find({})).toEqual(before);
    expect(await svc.store.collection(conversationsCollection).findById(conversationId)).toEqual(conversationBefore);
  });

  it('fixes exactly the unread counts that disagree with the messages', async () => {
    // Cem's count missed a message (a crash before the $inc); Burak's is off the other way.
    await states().updateOne({ _id: memberStateId(conversationId, cem.id) }, { $set: { unread_count: 0 } });
    await states().updateOne({ _id: memberStateId(conversationId, burak.id) }, { $set: { unread_count: 5 } });
    const untouched = await states().findById(memberStateId(conversationId, ayse.id));

    expect(await repair.repair()).toEqual({ 'conversation_members.unread_count': 2, 'conversations.last_message': 0 });

    expect([await unread(ayse), await unread(burak), await unread(cem)]).toEqual([0, 1, 1]);
    expect(await states().findById(memberStateId(conversationId, ayse.id))).toEqual(untouched);
    const list = await svc.http().get('/api/messages/conversations').set(cem.auth);
    expect(list.body.data[0]).toMatchObject({ id: conversationId, unread_count: 1 });
  });

  it('counts from joined_at before the first read, and accepts either side of a same-millisecond marker', async () => {
    await svc.store.collection(messagesCollection).insertMany([
      { conversation_id: 'c', sender_id: 'x', content: '1', created_at: T(1) },
      { conversation_id: 'c', sender_id: 'x', content: '2', created_at: T(2) },
      { conversation_id: 'c', sender_id: 'x', content: '3', created_at: T(3) },
      { conversation_id: 'c', sender_id: 'u1', content: 'mine', created_at: T(4) },
    ]);
    // Marker T(2): for u1, one message from others strictly after it and two at or after it (its own
    // at T(4) never counts); for the others, two and three.
    const state = (user: string, unread_count: number, last_read_at: string | null, joined_at = T(0)) => ({
      _id: memberStateId('c', user),
      conversation_id: 'c',
      user_id: user,
      unread_count,
      last_read_at,
      joined_at,
    });
    await states().insertMany([
      state('u1', 1, T(2)),
      state('u2', 2, T(2)),
      state('u3', 0, T(2)),
      state('u4', 7, T(2)),
      state('u5', 2, null, T(2)),
      state('u6', 4, null),
    ]);
    expect(await repair.repair()).toEqual({ 'conversation_members.unread_count': 2, 'conversations.last_message': 0 });
    const after = Object.fromEntries((await states().find({ conversation_id: 'c' })).map((s) => [s.user_id, s.unread_count]));
    expect(after).toEqual({ u1: 1, u2: 2, u3: 2, u4: 3, u5: 2, u6: 4 });
  });

  it('sets a last_message a crash left behind to the newest message, and only that', async () => {
    const conversations = svc.store.collection(conversationsCollection);
    const current = (await conversations.findById(conversationId))!;
    expect(current.last_message?.content).toBe('four');
    // The crash: 'four' is stored, the conversation still shows 'three' as of 'three's time.
    const three = (await svc.store.collection(messagesCollection).findOne({ conversation_id: conversationId, content: 'three' }))!;
    await conversations.updateOne(
      { _id: conversationId },
      { $set: { last_message: { id: three._id, content: 'three', sender_id: burak.id, created_at: three.created_at }, updated_at: three.created_at } },
    );

    expect(await repair.repair()).toEqual({ 'conversation_members.unread_count': 0, 'conversations.last_message': 1 });
    expect(await conversations.findById(conversationId)).toEqual(current);
    const list = await svc.http().get('/api/messages/conversations').set(burak.auth);
    expect(list.body.data[0].last_message).toMatchObject({ content: 'four' });
    expect(await repair.repair()).toEqual({ 'conversation_members.unread_count': 0, 'conversations.last_message': 0 });
  });
});

describe('messaging counter repair at boot', () => {
  let dir: string;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'messaging-counters-'));
    // What a crash left on disk: a message whose $inc never happened.
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    await store.open(messagingService.collections);
    await store.collection(messagesCollection).insert({ conversation_id: 'c', sender_id: 'a', content: 'hi', created_at: T(1) });
    await store
      .collection(memberStatesCollection)
      .insert({ _id: memberStateId('c', 'b'), conversation_id: 'c', user_id: 'b', unread_count: 0, last_read_at: null, joined_at: T(0) });
    await store.close();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recomputes unread counts while the service boots', async () => {
    const store = new SqliteStore({ file: join(dir, 'service.sqlite') });
    app = await buildService(messagingService, { config: testConfig(), store, transport: new MemoryTransport() });
    expect((await store.collection(memberStatesCollection).findById(memberStateId('c', 'b')))?.unread_count).toBe(1);
  });
});
