import { io, Socket } from 'socket.io-client';
import { SocketAck } from '@app/contracts';

/**
 * A member's side of a running stack, as the whole-stack tests drive it: JSON calls through a
 * gateway, registration, a socket.io connection that keeps every event it receives.
 */

export interface Member {
  id: string;
  username: string;
  token: string;
}

export type Inbox = Record<string, unknown[]>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

export interface Reply<T> {
  status: number;
  body: { success: boolean; data: T; message?: string };
}

export async function call<T = unknown>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Reply<T>> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function register(base: string, name: string, tag: string): Promise<Member> {
  const res = await call<{ token: string; user: { id: string; username: string } }>(base, 'POST', '/api/auth/register', undefined, {
    email: `${name.toLowerCase()}-${tag}@example.com`,
    name,
    password: 'lamp-desk-battery-42',
  });
  if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id, username: res.body.data.user.username, token: res.body.data.token };
}

export function connect(url: string, token: string, inbox: Inbox): Promise<Socket> {
  const socket = io(url, {
    path: '/socket.io',
    transports: ['polling'],
    forceNew: true,
    reconnection: false,
    timeout: 20_000,
    auth: { token },
  });
  socket.onAny((event: string, payload: unknown) => (inbox[event] ??= []).push(payload));
  return new Promise((done, fail) => {
    socket.once('connect', () => done(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      fail(err);
    });
  });
}

export const emitAck = <T>(socket: Socket, event: string, payload: unknown): Promise<SocketAck<T>> =>
  socket.timeout(10_000).emitWithAck(event, payload);
