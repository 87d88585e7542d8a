import { Socket } from 'socket.io-client';
import request from 'supertest';
import { ConversationView, MessageView, PushedNotification, ServerToClientPayloads } from '@app/contracts';
import { describeWithRedis } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { startTwoGateways, TwoGateways } from './two-gateways';
import { auth, connectMember, Inbox, Member, register, sleep, startConversation, until } from './chat-clients';

/**
 * Issue 22 §4: an edit, a delete, a reaction, an image message and a read receipt reach every
 * member's open sockets through the gateway, once each, and only the members'; also across two
 * gateways sharing Redis. Squad chat @mentions reach the mentioned member as a notification.
 */

/**
 * Ayse sends, edits, Burak reacts, Ayse deletes: every inbox in `members` gets each push exactly
 * once, `outsider` gets none.
 */
async function editReactDelete(url: string, ayse: Member, burak: Member, conversationId: string, members: Inbox[], outsider: Inbox) {
  const sent = await request(url).post(`/api/messages/conversations/${conversationId}/messages`).set(auth(ayse)).send({ content: 'Yarin 8de?' });
  expect(sent.status).toBe(201);
  const messageId = (sent.body.data as MessageView).id;
  const got = (inbox: Inbox, event: string) => (inbox[event] ?? []).filter((p) => (p as { messageId: string }).messageId === messageId);
  const everyone = (event: string) => until(() => members.every((i) => got(i, event).length > 0), `${event} at every member socket`);

  const edited = await request(url).put(`/api/messages/${messageId}`).set(auth(ayse)).send({ content: 'Yarin 9da?' });
  expect(edited.status).toBe(200);
  await everyone('message-updated');
  const reacted = await request(url).post(`/api/messages/${messageId}/reactions`).set(auth(burak)).send({ emoji: '👍' });
  expect(reacted.status).toBe(201);
  await everyone('message-reactions');
  const deleted = await request(url).delete(`/api/messages/${messageId}`).set(auth(ayse));
  expect(deleted.status).toBe(200);
  await everyone('message-deleted');
  await sleep(300);

  for (const inbox of members) {
    expect(got(inbox, 'message-updated')).toEqual([{ conversationId, messageId, content: 'Yarin 9da?', edited_at: edited.body.data.edited_at }]);
    expect(got(inbox, 'message-reactions')).toEqual<ServerToClientPayloads['message-reactions'][]>([
      { conversationId, messageId, userId: burak.id, emoji: '👍', added: true, reactions: [{ emoji: '👍', count: 1 }] },
    ]);
    expect(got(inbox, 'message-deleted')).toEqual([{ conversationId, messageId }]);
  }
  for (const event of ['message-updated', 'message-reactions', 'message-deleted']) expect(got(outsider, event)).toEqual([]);

  // What a reload shows: the tombstone, blank, without reactions.
  const page = await request(url).get(`/api/messages/conversations/${conversationId}/messages`).set(auth(burak));
  expect((page.body.data as MessageView[]).find((m) => m.id === messageId)).toMatchObject({
    content: '',
    deleted: true,
    reactions: [],
    edited_at: edited.body.data.edited_at,
  });
}

/**
 * Ayse sends an image-only message, Burak reads the conversation: the image reaches every member
 * socket once, the receipt reaches Ayse's and Burak's own tabs once, `outsider` gets neither.
 */
async function imageAndReceipt(
  url: string,
  ayse: Member,
  burak: Member,
  conversationId: string,
  inboxes: { ayse: Inbox[]; burak: Inbox[]; outsider: Inbox },
) {
  const attachments = [{ url: '/api/media/0123456789abcdef01234567', alt: 'Kutu' }];
  const sent = await request(url).post(`/api/messages/conversations/${conversationId}/messages`).set(auth(ayse)).send({ attachments });
  expect(sent.status).toBe(201);
  const messageId = (sent.body.data as MessageView).id;
  const members = [...inboxes.ayse, ...inboxes.burak];
  const images = (inbox: Inbox) => ((inbox['new-message'] ?? []) as MessageView[]).filter((m) => m.id === messageId);
  await until(() => members.every((i) => images(i).length > 0), 'the image message at every member socket');

  const read = await request(url).post(`/api/messages/conversations/${conversationId}/read`).set(auth(burak));
  expect(read.status).toBe(200);
  const readAt = read.body.data.last_read_at as string;
  const receipts = (inbox: Inbox) =>
    ((inbox['conversation-read'] ?? []) as ServerToClientPayloads['conversation-read'][]).filter((r) => r.readAt === readAt);
  await until(() => members.every((i) => receipts(i).length > 0), 'conversation-read at every member socket');
  await sleep(300);

  for (const inbox of members) {
    expect(images(inbox)).toEqual([expect.objectContaining({ content: '', attachments: [{ url: attachments[0].url, alt: 'Kutu' }] })]);
    expect(receipts(inbox)).toEqual([{ conversationId, userId: burak.id, readAt }]);
  }
  expect(images(inboxes.outsider)).toEqual([]);
  expect(inboxes.outsider['conversation-read'] ?? []).toEqual([]);
  // What a reload shows Ayse: Burak's read marker, for "Seen".
  const list = await request(url).get('/api/messages/conversations').set(auth(ayse));
  expect((list.body.data as ConversationView[]).find((c) => c.id === conversationId)).toMatchObject({ other_read_at: readAt });
}

describe('message edits, deletes, reactions, images, receipts and mentions over the socket (embedded stack)', () => {
  let stack: EmbeddedStack;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
  });

  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await stack?.close();
  });

  it('reach both members (and both of Burak’s tabs) once each, and nobody else', async () => {
    const [ayse, burak, cem] = [await register(stack.url, 'Ayse'), await register(stack.url, 'Burak'), await register(stack.url, 'Cem')];
    await stack.settle();
    const conversationId = (await request(stack.url).post('/api/messages/conversations').set(auth(ayse)).send({ memberIds: [burak.id] })).body.data.id;
    const [inboxA, inboxB, inboxB2, inboxC]: Inbox[] = [{}, {}, {}, {}];
    sockets.push(
      await connectMember(stack.url, ayse, inboxA),
      await connectMember(stack.url, burak, inboxB),
      await connectMember(stack.url, burak, inboxB2),
      await connectMember(stack.url, cem, inboxC),
    );
    await editReactDelete(stack.url, ayse, burak, conversationId, [inboxA, inboxB, inboxB2], inboxC);
    await imageAndReceipt(stack.url, ayse, burak, conversationId, { ayse: [inboxA], burak: [inboxB, inboxB2], outsider: inboxC });
  });

  it('a squad chat read tells only the reader’s own tabs: groups show no receipts', async () => {
    const [ayse, burak, cem] = [await register(stack.url, 'Ayse'), await register(stack.url, 'Burak'), await register(stack.url, 'Cem')];
    await stack.settle();
    const group = (await request(stack.url).post('/api/messages/conversations').set(auth(ayse)).send({ memberIds: [burak.id, cem.id] })).body.data.id;
    const [inboxA, inboxB, inboxB2]: Inbox[] = [{}, {}, {}];
    sockets.push(await connectMember(stack.url, ayse, inboxA), await connectMember(stack.url, burak, inboxB), await connectMember(stack.url, burak, inboxB2));
    await request(stack.url).post(`/api/messages/conversations/${group}/messages`).set(auth(ayse)).send({ content: 'Herkese selam' });
    const read = await request(stack.url).post(`/api/messages/conversations/${group}/read`).set(auth(burak));
    await until(() => [inboxB, inboxB2].every((i) => (i['conversation-read'] ?? []).length > 0), 'conversation-read at Burak’s tabs');
    await sleep(300);
    expect(inboxB['conversation-read']).toEqual([{ conversationId: group, userId: burak.id, readAt: read.body.data.last_read_at }]);
    expect(inboxA['conversation-read'] ?? []).toEqual([]);
  });

  it('an @mention in squad chat notifies the mentioned member on every tab, once, even when an edit repeats it; never a non-member', async () => {
    const [ayse, burak, cem] = [await register(stack.url, 'Ayse'), await register(stack.url, 'Burak'), await register(stack.url, 'Cem')];
    await stack.settle();
    const squadId = (await request(stack.url).post('/api/squads').set(auth(ayse)).send({ name: 'Coffee Lab', category: 'Food' })).body.data.id as string;
    const asked = await request(stack.url).post(`/api/squads/${squadId}/request-join`).set(auth(burak)).send({});
    await stack.settle();
    await request(stack.url).post(`/api/squads/${squadId}/join-requests/${asked.body.data.id}`).set(auth(ayse)).send({ action: 'approve' });
    await stack.settle();
    const chat = (await request(stack.url).get(`/api/messages/squads/${squadId}/conversation`).set(auth(ayse))).body.data.id as string;
    const [inboxB, inboxB2, inboxC]: Inbox[] = [{}, {}, {}];
    sockets.push(await connectMember(stack.url, burak, inboxB), await connectMember(stack.url, burak, inboxB2), await connectMember(stack.url, cem, inboxC));

    const sent = await request(stack.url)
      .post(`/api/messages/conversations/${chat}/messages`)
      .set(auth(ayse))
      .send({ content: `@${burak.username} tadına bak, @${cem.username} de gelsin` });
    expect(sent.status).toBe(201);
    const mentions = (inbox: Inbox) => ((inbox.notification ?? []) as PushedNotification[]).filter((n) => n.type === 'squad_mention');
    await until(() => mentions(inboxB).length > 0 && mentions(inboxB2).length > 0, 'the mention notification at Burak’s tabs');
    const edited = await request(stack.url).put(`/api/messages/${sent.body.data.id}`).set(auth(ayse)).send({ content: `@${burak.username} tadına bak!` });
    expect(edited.status).toBe(200);
    await stack.settle();
    await sleep(300);

    for (const inbox of [inboxB, inboxB2]) {
      expect(mentions(inbox)).toEqual([expect.objectContaining({ message: 'Ayse mentioned you in Coffee Lab chat', related_user: expect.objectContaining({ id: ayse.id }) })]);
    }
    expect(mentions(inboxC)).toEqual([]);
    const list = await request(stack.url).get('/api/notifications').set(auth(burak));
    const stored = (list.body.data as { type: string }[]).filter((n) => n.type === 'squad_mention');
    expect(stored).toEqual([expect.objectContaining({ squad_id: squadId })]);
  });
});

describeWithRedis('message-actions.system.spec')('message edits, deletes, reactions, images and receipts across two gateways sharing Redis', () => {
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

  it('reach Ayse on gateway 1 and Burak on both gateways once each, whichever gateway took the request', async () => {
    const [g1, g2] = gatewayUrls;
    const ayse = await register(g1, 'Ayse');
    const burak = await register(g2, 'Burak');
    const cem = await register(g2, 'Cem');
    const conversationId = await startConversation(g1, ayse, burak);
    const [inboxA, inboxB, inboxB2, inboxC]: Inbox[] = [{}, {}, {}, {}];
    sockets.push(
      await connectMember(g1, ayse, inboxA),
      await connectMember(g2, burak, inboxB),
      await connectMember(g1, burak, inboxB2),
      await connectMember(g2, cem, inboxC),
    );
    await editReactDelete(g2, ayse, burak, conversationId, [inboxA, inboxB, inboxB2], inboxC);
    await imageAndReceipt(g1, ayse, burak, conversationId, { ayse: [inboxA], burak: [inboxB, inboxB2], outsider: inboxC });
  }, 60_000);
});
