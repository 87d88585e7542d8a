import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { SocketAck } from '@app/contracts';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 11 §6 through the whole stack with tiny limits: follows per member over HTTP, and
 * over the socket message sends per member and events per socket (an error ack, typing
 * dropped, the connection and the gateway unharmed).
 */

interface Member {
  id: string;
  token: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('abuse limits (RATE_LIMITS=on, tiny limits)', () => {
  let stack: EmbeddedStack;
  const members: Member[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startEmbeddedStack({
      port: 0,
      dataDir: ':memory:',
      seed: false,
      env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'on', RATE_LIMIT_FOLLOWS: '2/60', RATE_LIMIT_MESSAGES: '3/60', RATE_LIMIT_SOCKET_EVENTS: '12/60' },
    });
    for (const name of ['ada', 'bob', 'cem', 'dan']) {
      const res = await request(stack.url).post('/api/auth/register').send({ email: `${name}@example.com`, name, password: 'lamp-desk-battery-42' });
      expect(res.status).toBe(201);
      members.push({ id: res.body.data.user.id, token: res.body.data.token });
    }
    await stack.settle();
  });

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await stack.close();
  });

  function connect(member: Member): Promise<Socket> {
    const socket = io(stack.url, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { token: member.token } });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  const ack = (socket: Socket, event: string, payload: unknown) => socket.timeout(5_000).emitWithAck(event, payload) as Promise<SocketAck<unknown>>;

  it('answers a member’s third follow in the window with 429 and Retry-After', async () => {
    const [ada, bob, cem, dan] = members;
    const follow = (target: Member) => request(stack.url).post(`/api/follows/users/${target.id}`).set('Authorization', `Bearer ${ada.token}`);
    expect((await follow(bob)).status).toBe(200);
    expect((await follow(cem)).status).toBe(200);
    const refused = await follow(dan);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toEqual({ success: false, message: 'Too many requests, please try again later', code: 'RATE_LIMITED' });
    // The member's reads and other members are unaffected.
    expect((await request(stack.url).get('/api/follows/following').set('Authorization', `Bearer ${ada.token}`)).status).toBe(200);
    const other = await request(stack.url).post(`/api/follows/users/${dan.id}`).set('Authorization', `Bearer ${bob.token}`);
    expect(other.status).toBe(200);
  });

  it('refuses socket sends past the member’s budget and events past the socket’s, without dropping the connection', async () => {
    const [, , cem, dan] = members;
    const started = await request(stack.url)
      .post('/api/messages/conversations')
      .set('Authorization', `Bearer ${cem.token}`)
      .send({ memberIds: [dan.id] });
    expect(started.status).toBe(201);
    const conversationId = started.body.data.id as string;
    const [cemSocket, danSocket] = [await connect(cem), await connect(dan)];
    const typingAtDan: unknown[] = [];
    danSocket.on('user-typing', (p: unknown) => typingAtDan.push(p));
    expect(await ack(danSocket, 'join-conversation', { conversationId })).toEqual({ success: true });

    const sends = [];
    for (let i = 0; i < 4; i++) sends.push(await ack(cemSocket, 'send-message', { conversationId, content: `hello ${i}` }));
    expect(sends.slice(0, 3).map((a) => a.success)).toEqual([true, true, true]);
    expect(sends[3]).toEqual({ success: false, message: expect.stringMatching(/^Too many requests, please try again in \d+ s$/) });

    // A typing flood with made-up conversation ids: the socket budget (12, 4 spent) runs out.
    for (let i = 0; i < 200; i++) cemSocket.emit('typing-start', { conversationId: i % 2 ? conversationId : `made-up-${i}` });
    await sleep(500);
    expect(typingAtDan.length).toBeLessThanOrEqual(1);
    const joined = await ack(cemSocket, 'join-conversation', { conversationId });
    expect(joined).toEqual({ success: false, message: expect.stringMatching(/^Too many requests/) });
    expect(cemSocket.connected).toBe(true);

    // Only three messages were stored, and the gateway serves everyone as before.
    const messages = await request(stack.url).get(`/api/messages/conversations/${conversationId}/messages`).set('Authorization', `Bearer ${dan.token}`);
    expect(messages.status).toBe(200);
    expect(messages.body.data).toHaveLength(3);
    expect(await ack(danSocket, 'leave-conversation', { conversationId })).toEqual({ success: true });
  });
});
