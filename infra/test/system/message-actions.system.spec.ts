import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { MessageView, ServerToClientPayloads } from '@app/contracts';
import { newId } from '@app/store';
import { describeWithRedis } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { startTwoGateways, TwoGateways } from './two-gateways';

/**
 * Issue 22 §4: an edit, a delete and a reaction reach every member's open sockets through the
 * gateway, once each, and only the members'; also across two gateways sharing Redis.
 */

interface Member {
  id: string;
  token: string;
}
type Inbox = Record<string, unknown[]>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const auth = (m: Member) => ({ Authorization: `Bearer ${m.token}` });

async function register(url: string, name: string): Promise<Member> {
  const res = await request(url)
    .post('/api/auth/register')
    .send({ email: `${name.toLowerCase()}-${newId()}@example.com`, name, password: 'lamp-desk-battery-42' });
  expect(res.status).toBe(201);
  return { id: res.body.data.user.id, token: res.body.data.token };
}

/** A client as the web's: long-polling, the token in the handshake; its user room is joined on connect. */
async function connect(url: string, member: Member, inbox: Inbox): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', transports: ['polling'], forceNew: true, reconnection: false, auth: { token: member.token } });
  socket.onAny((event: string, payload: unknown) => (inbox[event] ??= []).push(payload));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = await socket.timeout(10_000).emitWithAck('join-user-room', member.id);
  expect(ack).toEqual({ success: true });
  return socket;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

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

describe('message edits, deletes and reactions over the socket (embedded stack)', () => {
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
      await connect(stack.url, ayse, inboxA),
      await connect(stack.url, burak, inboxB),
      await connect(stack.url, burak, inboxB2),
      await connect(stack.url, cem, inboxC),
    );
    await editReactDelete(stack.url, ayse, burak, conversationId, [inboxA, inboxB, inboxB2], inboxC);
  });
});

describeWithRedis('message-actions.system.spec')('message edits, deletes and reactions across two gateways sharing Redis', () => {
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
    let conversationId = '';
    await until(async () => {
      const res = await request(g1).post('/api/messages/conversations').set(auth(ayse)).send({ memberIds: [burak.id] });
      conversationId = res.body.data?.id ?? '';
      return res.status === 201 || res.status === 200;
    }, 'messaging to know both members', 20_000);
    const [inboxA, inboxB, inboxB2, inboxC]: Inbox[] = [{}, {}, {}, {}];
    sockets.push(
      await connect(g1, ayse, inboxA),
      await connect(g2, burak, inboxB),
      await connect(g1, burak, inboxB2),
      await connect(g2, cem, inboxC),
    );
    await editReactDelete(g2, ayse, burak, conversationId, [inboxA, inboxB, inboxB2], inboxC);
  }, 60_000);
});
