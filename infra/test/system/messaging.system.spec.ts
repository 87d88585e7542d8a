import { Socket } from 'socket.io-client';
import request from 'supertest';
import { MessageView } from '@app/contracts';
import { newId } from '@app/store';
import { sharedMemoryTransport } from '@app/bus';
import { describeWithRedis } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { startTwoGateways, TwoGateways } from './two-gateways';
import { auth, connect, emitAck, Inbox, Member, register, sleep, startConversation, until } from './chat-clients';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');


describe('messaging and real time through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Member;
  let burak: Member;
  let cem: Member;
  const sockets: Socket[] = [];
  const inboxA: Inbox = {};
  const inboxB: Inbox = {};
  let socketA: Socket;
  let socketB: Socket;
  let withBurak: string;
  let withCem: string;

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    ayse = await register(stack.url, 'Ayse');
    burak = await register(stack.url, 'Burak');
    cem = await register(stack.url, 'Cem');
    await stack.settle();
    withCem = (await request(stack.url).post('/api/messages/conversations').set(auth(burak)).send({ memberIds: [cem.id] })).body.data.id;
    await sleep(5);
    withBurak = (await request(stack.url).post('/api/messages/conversations').set(auth(ayse)).send({ memberIds: [burak.id] })).body.data.id;
    socketA = await connect(stack.url, ayse.token, inboxA);
    socketB = await connect(stack.url, burak.token, inboxB);
    sockets.push(socketA, socketB);
  });

  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await stack?.close();
  });

  it('refuses a socket without a valid token', async () => {
    await expect(connect(stack.url, undefined, {})).rejects.toThrow('Authentication required');
    await expect(connect(stack.url, 'not.a.token', {})).rejects.toThrow('Invalid or expired token');
  });

  it('lets a member join only their own user room and only conversations they are in', async () => {
    expect(await emitAck(socketA, 'join-user-room', ayse.id)).toEqual({ success: true });
    expect(await emitAck(socketA, 'join-user-room', burak.id)).toEqual({ success: false, message: 'You can only join your own room' });
    expect(await emitAck(socketB, 'join-user-room', burak.id)).toEqual({ success: true });
    expect(await emitAck(socketA, 'join-conversation', withBurak)).toEqual({ success: true });
    expect(await emitAck(socketB, 'join-conversation', withBurak)).toEqual({ success: true });
    expect(await emitAck(socketA, 'join-conversation', withCem)).toEqual({
      success: false,
      message: 'You are not a member of this conversation',
    });
  });

  it('A sends; B gets new-message exactly once, the list re-sorts and B’s unread count rises then falls on read', async () => {
    const list = async () => (await request(stack.url).get('/api/messages/conversations').set(auth(burak))).body.data as {
      id: string;
      unread_count: number;
      last_message: { content: string } | null;
    }[];
    expect((await list()).map((c) => c.id)).toEqual([withBurak, withCem]);

    // Cem writes in the older conversation: it moves to the top of Burak's list.
    await request(stack.url).post(`/api/messages/conversations/${withCem}/messages`).set(auth(cem)).send({ content: 'Hey Burak' });
    await stack.settle();
    expect((await list()).map((c) => c.id)).toEqual([withCem, withBurak]);

    const ack = await emitAck<MessageView>(socketA, 'send-message', { conversationId: withBurak, content: '  Merhaba Burak!  ' });
    expect(ack).toEqual({ success: true, data: expect.objectContaining({ content: 'Merhaba Burak!', sender_id: ayse.id }) });
    await until(() => (inboxB['new-message'] ?? []).length > 0, 'new-message at B');
    await stack.settle();
    await sleep(300);
    const atB = (inboxB['new-message'] as MessageView[]).filter((m) => m.conversation_id === withBurak);
    expect(atB).toHaveLength(1);
    expect(atB[0]).toEqual(ack.success ? ack.data : undefined);
    // The sender's own socket is a member's socket too: once.
    expect((inboxA['new-message'] as MessageView[]).filter((m) => m.id === atB[0].id)).toHaveLength(1);

    let rows = await list();
    expect(rows.map((c) => c.id)).toEqual([withBurak, withCem]);
    expect(rows[0]).toMatchObject({ unread_count: 1, last_message: { content: 'Merhaba Burak!' } });
    expect(rows[1].unread_count).toBe(1);

    const read = await request(stack.url).post(`/api/messages/conversations/${withBurak}/read`).set(auth(burak));
    expect(read.status).toBe(200);
    rows = await list();
    expect(rows[0].unread_count).toBe(0);
    expect(rows[1].unread_count).toBe(1);
  });

  it('refuses a send to a conversation the member is not in, over the socket', async () => {
    expect(await emitAck(socketA, 'send-message', { conversationId: withCem, content: 'sneaky' })).toEqual({
      success: false,
      message: 'You are not a member of this conversation',
      code: 'NOT_IN_CONVERSATION',
    });
    expect(await emitAck(socketA, 'send-message', { conversationId: withBurak, content: '   ' })).toEqual({
      success: false,
      message: 'Message cannot be empty',
      code: 'VALIDATION_FAILED',
    });
  });

  it('sends pictures over the socket too (issue 31 §4): uploaded first over HTTP, named by their URL; B gets them', async () => {
    const upload = await request(stack.url).post('/api/media').set(auth(ayse)).attach('file', PNG_1PX, 'kettle.png');
    expect(upload.status).toBe(201);
    const url = upload.body.data.url as string;
    const before = (inboxB['new-message'] ?? []).length;
    const ack = await emitAck<MessageView>(socketA, 'send-message', { conversationId: withBurak, content: '', attachments: [{ url, alt: 'A kettle' }] });
    expect(ack).toEqual({ success: true, data: expect.objectContaining({ content: '', attachments: [{ url, alt: 'A kettle' }] }) });
    await until(() => (inboxB['new-message'] ?? []).length > before, 'the picture at B');
    expect((inboxB['new-message'] as MessageView[]).at(-1)).toMatchObject({ attachments: [{ url, alt: 'A kettle' }] });
    // Text and pictures together, one message.
    const both = await emitAck<MessageView>(socketA, 'send-message', { conversationId: withBurak, content: 'Look', attachments: [{ url }] });
    expect(both).toEqual({ success: true, data: expect.objectContaining({ content: 'Look', attachments: [{ url, alt: null }] }) });
    // Only uploads of this product, a list, and the service's own checks with their code.
    expect(await emitAck(socketA, 'send-message', { conversationId: withBurak, content: 'x', attachments: [{ url: 'https://evil.example/x.png' }] })).toEqual({
      success: false,
      message: 'url must be an uploaded image (/api/media/{id})',
      code: 'VALIDATION_FAILED',
    });
    expect(await emitAck(socketA, 'send-message', { conversationId: withBurak, content: 'x', attachments: 'no' })).toEqual({
      success: false,
      message: 'attachments must be a list',
    });
  });

  it('relays typing start and stop to B only, throttled, with the sender’s real identity', async () => {
    inboxA['user-typing'] = [];
    inboxB['user-typing'] = [];
    for (let i = 0; i < 5; i++) socketA.emit('typing-start', { conversationId: withBurak, userId: 'forged', username: 'forged' });
    await until(() => inboxB['user-typing'].length > 0, 'user-typing at B');
    socketA.emit('typing-stop', { conversationId: withBurak, userId: ayse.id });
    await until(() => (inboxB['user-stopped-typing'] ?? []).length > 0, 'user-stopped-typing at B');
    await sleep(300);
    expect(inboxB['user-typing']).toEqual([{ conversationId: withBurak, userId: ayse.id, username: ayse.username }]);
    expect(inboxB['user-stopped-typing']).toEqual([{ conversationId: withBurak, userId: ayse.id }]);
    expect(inboxA['user-typing']).toEqual([]);
    expect(inboxA['user-stopped-typing']).toBeUndefined();

    // Typing in a conversation one is not in reaches nobody.
    const inboxC: Inbox = {};
    const socketC = await connect(stack.url, cem.token, inboxC);
    sockets.push(socketC);
    socketC.emit('typing-start', { conversationId: withBurak, userId: cem.id, username: cem.username });
    await sleep(300);
    expect(inboxB['user-typing']).toHaveLength(1);
  });

  it('after the leave-conversation B no longer sees typing, but still gets new messages in its user room', async () => {
    expect(await emitAck(socketB, 'leave-conversation', withBurak)).toEqual({ success: true });
    inboxB['user-typing'] = [];
    inboxB['new-message'] = [];
    await sleep(550);
    socketA.emit('typing-start', { conversationId: withBurak, userId: ayse.id, username: ayse.username });
    await emitAck(socketA, 'send-message', { conversationId: withBurak, content: 'still there?' });
    await until(() => inboxB['new-message'].length > 0, 'new-message at B');
    await sleep(200);
    expect(inboxB['user-typing']).toEqual([]);
    expect(inboxB['new-message']).toHaveLength(1);
  });

  it('pushes notification.created to the recipient’s sockets when push is on', async () => {
    inboxB.notification = [];
    const notification = { id: newId(), type: 'new_follower', message: 'Ayse started following you', is_read: false, created_at: new Date().toISOString(), related_user: null };
    const publish = (push: boolean, id: string) =>
      sharedMemoryTransport().publish({
        id: newId(), type: 'notification.created', version: 1, occurredAt: new Date().toISOString(), actorId: ayse.id, key: burak.id,
        payload: { notificationId: id, recipientId: burak.id, push, notification: { ...notification, id } },
      });
    await publish(false, 'silent');
    await publish(true, notification.id);
    await until(() => inboxB.notification.length > 0, 'notification at B');
    await sleep(200);
    expect(inboxB.notification).toEqual([notification]);
    expect(inboxA.notification).toBeUndefined();
  });
});

describeWithRedis('messaging.system.spec')('message delivery across two gateways sharing Redis', () => {
  let world: TwoGateways | undefined;
  const sockets: Socket[] = [];
  let gatewayUrls: string[];

  beforeAll(async () => {
    world = await startTwoGateways();
    gatewayUrls = world.gatewayUrls;
  }, 60_000);

  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await world?.close();
  });

  it('A on gateway 1 sends; B on gateway 2 gets new-message exactly once; typing crosses too', async () => {
    const [g1, g2] = gatewayUrls;
    const ayse = await register(g1, 'Ayse');
    const burak = await register(g2, 'Burak');
    // The messaging service learns of both over Redis Streams.
    const conversationId = await startConversation(g1, ayse, burak);

    const inboxA: Inbox = {};
    const inboxB: Inbox = {};
    const socketA = await connect(g1, ayse.token, inboxA);
    const socketB = await connect(g2, burak.token, inboxB);
    // A second tab of Burak on gateway 1: each of his sockets gets the message once.
    const inboxB2: Inbox = {};
    const socketB2 = await connect(g1, burak.token, inboxB2);
    sockets.push(socketA, socketB, socketB2);
    expect(await emitAck(socketA, 'join-conversation', conversationId)).toEqual({ success: true });
    expect(await emitAck(socketB, 'join-conversation', conversationId)).toEqual({ success: true });

    const ack = await emitAck<MessageView>(socketA, 'send-message', { conversationId, content: 'Across gateways' });
    expect(ack.success).toBe(true);
    await until(() => (inboxB['new-message'] ?? []).length > 0 && (inboxB2['new-message'] ?? []).length > 0, 'new-message on both gateways');
    await sleep(500);
    expect(inboxB['new-message']).toHaveLength(1);
    expect(inboxB2['new-message']).toHaveLength(1);
    expect(inboxA['new-message']).toHaveLength(1);
    expect((inboxB['new-message'] as MessageView[])[0].content).toBe('Across gateways');

    socketA.emit('typing-start', { conversationId, userId: ayse.id, username: ayse.username });
    await until(() => (inboxB['user-typing'] ?? []).length > 0, 'user-typing across gateways');
    await sleep(200);
    expect(inboxB['user-typing']).toEqual([{ conversationId, userId: ayse.id, username: ayse.username }]);
    expect(inboxA['user-typing']).toBeUndefined();
    // Burak's second tab never joined the conversation room: typing is for the room only.
    expect(inboxB2['user-typing']).toBeUndefined();
  });
});
