import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { SocketAck } from '@app/contracts';
import { newId } from '@app/store';

/** Members and socket clients for the messaging system specs (one gateway or two). */

export interface Member {
  id: string;
  username: string;
  token: string;
}

/** Everything one client received, by event name. */
export type Inbox = Record<string, unknown[]>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const auth = (m: Member) => ({ Authorization: `Bearer ${m.token}` });

export async function register(url: string, name: string): Promise<Member> {
  const res = await request(url)
    .post('/api/auth/register')
    .send({ email: `${name.toLowerCase()}-${newId()}@example.com`, name, password: 'lamp-desk-battery-42' });
  expect(res.status).toBe(201);
  return { id: res.body.data.user.id, username: res.body.data.user.username, token: res.body.data.token };
}

/** A client as the spec's: long-polling only, credentials, the token in the handshake, 20 s timeout. */
export function connect(url: string, token: string | undefined, inbox: Inbox): Promise<Socket> {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['polling'],
    withCredentials: true,
    timeout: 20_000,
    forceNew: true,
    reconnection: false,
    auth: token ? { token } : {},
  });
  socket.onAny((event: string, payload: unknown) => (inbox[event] ??= []).push(payload));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** A member's tab as the web opens it: connected, then in its own user room. */
export async function connectMember(url: string, member: Member, inbox: Inbox): Promise<Socket> {
  const socket = await connect(url, member.token, inbox);
  expect(await emitAck(socket, 'join-user-room', member.id)).toEqual({ success: true });
  return socket;
}

export function emitAck<T = undefined>(socket: Socket, event: string, payload: unknown): Promise<SocketAck<T>> {
  return socket.timeout(10_000).emitWithAck(event, payload);
}

export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** A one-to-one started by `from`; over Redis the messaging service may not know `to` yet, so it retries. */
export async function startConversation(url: string, from: Member, to: Member): Promise<string> {
  let conversationId = '';
  await until(async () => {
    const res = await request(url).post('/api/messages/conversations').set(auth(from)).send({ memberIds: [to.id] });
    conversationId = res.body.data?.id ?? '';
    return res.status === 201 || res.status === 200;
  }, 'messaging to know both members', 20_000);
  return conversationId;
}
