import { io, Socket } from 'socket.io-client';
import { SocketAck } from '@app/contracts';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { probe } from './http-probe';

/**
 * Issue 17 §4 with real socket.io clients: a block or a removal from a squad takes the rooms
 * away at once, and every join and typing event is checked against the membership of now.
 * Absence is proven by order, not by waiting: a typing event that is still delivered (a
 * sentinel) reaches the same socket after anything the server emitted to it before.
 */

interface Member {
  id: string;
  token: string;
  socket: Socket;
  typing: Array<{ conversationId: string; userId: string }>;
}

describe('socket rooms follow blocks and squad membership (embedded stack)', () => {
  let stack: EmbeddedStack;
  const members: Record<string, Member> = {};

  const api = async (who: Member, method: string, path: string, body?: unknown) => {
    const res = await probe(stack.url, { method, path, token: who.token, body });
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text.slice(0, 200)}`);
    return (res.json as { data: { id: string } }).data;
  };
  const ack = (who: Member, event: string, payload: unknown) => who.socket.timeout(5_000).emitWithAck(event, payload) as Promise<SocketAck<unknown>>;

  async function join(name: string): Promise<Member> {
    const res = await probe(stack.url, { method: 'POST', path: '/api/auth/register', body: { email: `${name}@example.com`, name, password: 'lamp-desk-battery-42' } });
    const { token, user } = (res.json as { data: { token: string; user: { id: string } } }).data;
    const socket = io(stack.url, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { token } });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
    const member: Member = { id: user.id, token, socket, typing: [] };
    socket.on('user-typing', (p: { conversationId: string; userId: string }) => member.typing.push(p));
    return member;
  }

  /** Resolves once `who` got a typing event of `from` in `conversationId`. */
  const typingArrives = (who: Member, from: Member, conversationId: string) =>
    new Promise<void>((resolve) => {
      const seen = (p: { conversationId: string; userId: string }) => {
        if (p.conversationId !== conversationId || p.userId !== from.id) return;
        who.socket.off('user-typing', seen);
        resolve();
      };
      who.socket.on('user-typing', seen);
    });
  const typedIn = (who: Member, conversationId: string, from: Member) => who.typing.filter((p) => p.conversationId === conversationId && p.userId === from.id);

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    for (const name of ['blocker', 'blocked', 'third', 'admin', 'leaver', 'stayer']) members[name] = await join(name);
    await stack.settle();
  });

  afterAll(async () => {
    Object.values(members).forEach((m) => m.socket.disconnect());
    await stack.close();
  });

  it('after a block, neither side of the one-to-one can join it or type into it; a shared group still works', async () => {
    const { blocker, blocked, third } = members;
    const direct = (await api(blocker, 'POST', '/api/messages/conversations', { memberIds: [blocked.id] })).id;
    const group = (await api(blocker, 'POST', '/api/messages/conversations', { memberIds: [blocked.id, third.id] })).id;
    await stack.settle();
    for (const who of [blocker, blocked]) {
      for (const conversationId of [direct, group]) expect(await ack(who, 'join-conversation', { conversationId })).toEqual({ success: true });
    }
    // Before the block the typing gets through.
    const before = typingArrives(blocker, blocked, direct);
    blocked.socket.emit('typing-start', { conversationId: direct });
    await before;

    await api(blocker, 'POST', `/api/users/${blocked.id}/block`);
    await stack.settle();
    blocker.typing.length = 0;
    blocked.socket.emit('typing-start', { conversationId: direct });
    // The sentinel: the same member's typing in the group still reaches the blocker.
    const sentinel = typingArrives(blocker, blocked, group);
    blocked.socket.emit('typing-start', { conversationId: group });
    await sentinel;
    expect(typedIn(blocker, direct, blocked)).toEqual([]);
    // And the other way: the blocker typing in the one-to-one reaches no one.
    blocked.typing.length = 0;
    blocker.socket.emit('typing-start', { conversationId: direct });
    const back = typingArrives(blocked, blocker, group);
    blocker.socket.emit('typing-start', { conversationId: group });
    await back;
    expect(typedIn(blocked, direct, blocker)).toEqual([]);
    expect(await ack(blocked, 'join-conversation', { conversationId: direct })).toEqual({ success: false, message: 'You are not a member of this conversation' });
  });

  it('a member removed from a squad neither sends nor receives typing in the squad chat, nor sends or joins', async () => {
    const { admin, leaver, stayer } = members;
    const squadId = (await api(admin, 'POST', '/api/squads', { name: 'Night Owls', category: 'General' })).id;
    await stack.settle();
    for (const who of [leaver, stayer]) {
      const asked = await api(who, 'POST', `/api/squads/${squadId}/request-join`, {});
      await stack.settle();
      await api(admin, 'POST', `/api/squads/${squadId}/join-requests/${asked.id}`, { action: 'approve' });
    }
    await stack.settle();
    const chat = (await api(admin, 'GET', `/api/messages/squads/${squadId}/conversation`)).id;
    for (const who of [admin, leaver, stayer]) expect(await ack(who, 'join-conversation', { conversationId: chat })).toEqual({ success: true });
    const before = typingArrives(admin, leaver, chat);
    leaver.socket.emit('typing-start', { conversationId: chat });
    await before;

    await api(admin, 'DELETE', `/api/squads/${squadId}/members/${leaver.id}`);
    await stack.settle();
    admin.typing.length = 0;
    leaver.typing.length = 0;
    // Sends: the leaver's typing reaches no one; the stayer's (the sentinel) reaches the admin after it.
    leaver.socket.emit('typing-start', { conversationId: chat });
    const sentinel = typingArrives(admin, stayer, chat);
    stayer.socket.emit('typing-start', { conversationId: chat });
    await sentinel;
    expect(typedIn(admin, chat, leaver)).toEqual([]);
    // Receives: the admin's typing reaches the stayer; an ack on the leaver's own connection after it shows nothing came first.
    const heard = typingArrives(stayer, admin, chat);
    admin.socket.emit('typing-start', { conversationId: chat });
    await heard;
    expect(await ack(leaver, 'join-conversation', { conversationId: chat })).toEqual({ success: false, message: 'You are not a member of this conversation' });
    expect(leaver.typing).toEqual([]);
    const sent = await ack(leaver, 'send-message', { conversationId: chat, content: 'still here?' });
    expect(sent.success).toBe(false);
  });
});
