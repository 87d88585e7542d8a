import { INestApplication } from '@nestjs/common';
import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { createGatewayApp, loadGatewayConfig } from '../../../gateway/src/gateway.app';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 17 §5 and §6 through the gateway: weak passwords refused with a field error; logout
 * and password change end sessions at once on the gateway that served them and on a second
 * gateway replica (each holds the cut-offs in memory; auth's event is in force before its reply),
 * and on open sockets.
 */

const SECRET = 'sessions-system-spec-secret-of-32-characters';
const PASSWORD = 'quiet-harbour-lantern-7';

describe('sessions and password policy (embedded stack, two gateways)', () => {
  let stack: EmbeddedStack;
  let replica: INestApplication;
  let replicaServer: Parameters<typeof request>[0];
  const sockets: Socket[] = [];
  const savedSecret = process.env.JWT_SECRET;

  beforeAll(async () => {
    process.env.JWT_SECRET = SECRET;
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    replica = await createGatewayApp(loadGatewayConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, LOG_LEVEL: 'silent', RATE_LIMITS: 'off', WEB_DIR: '/nonexistent' }), stack.serviceUrls);
    await replica.init();
    replicaServer = replica.getHttpServer();
  });

  afterAll(async () => {
    sockets.forEach((s) => s.disconnect());
    await replica.close();
    await stack.close();
    process.env.JWT_SECRET = savedSecret;
  });

  const register = (email: string, password: string) => request(stack.url).post('/api/auth/register').send({ email, name: 'Session Member', password });
  const me = (server: Parameters<typeof request>[0], token: string) => request(server).get('/api/auth/me').set('Authorization', `Bearer ${token}`);
  const feed = (server: Parameters<typeof request>[0], token: string) => request(server).get('/api/feed').set('Authorization', `Bearer ${token}`);

  function connect(token: string): Promise<Socket> {
    const socket = io(stack.url, { transports: ['websocket'], forceNew: true, reconnection: false, auth: { token } });
    sockets.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  it.each(['123456', 'aaaaaa', '      ', 'password', 'demo1234', 'qwerty123'])('refuses the weak password %j at registration with a field error', async (password) => {
    const res = await register('weak@example.com', password);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, errors: [{ field: 'password', messages: expect.any(Array) }] });
  });

  it('logout: the token fails at once on this gateway and on the replica, and its socket is closed', async () => {
    const token = (await register('leaver@example.com', PASSWORD)).body.data.token as string;
    // The replica has seen the member before: it holds the cut-off in its own memory.
    expect((await feed(replicaServer, token)).status).toBe(200);
    const socket = await connect(token);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const out = await request(stack.url).post('/api/auth/logout').set('Authorization', `Bearer ${token}`);
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ success: true });
    const next = await feed(stack.url, token);
    expect(next.status).toBe(401);
    expect(next.body).toEqual({ success: false, message: 'Invalid or expired token', code: 'INVALID_TOKEN' });
    // In force on the replica too once the logout has returned: auth waited for its relay (issue 44).
    expect((await feed(replicaServer, token)).status).toBe(401);
    expect(await closed).toBe('io server disconnect');
    await expect(connect(token)).rejects.toThrow('Invalid or expired token');
    // Logging in again gives a token that works everywhere.
    const again = (await request(stack.url).post('/api/auth/login').send({ email: 'leaver@example.com', password: PASSWORD })).body.data.token as string;
    expect((await me(stack.url, again)).status).toBe(200);
    expect((await me(replicaServer, again)).status).toBe(200);
  });

  it('password change: refuses a weak new password, then revokes older tokens and returns a fresh one', async () => {
    const first = (await register('changer@example.com', PASSWORD)).body.data.token as string;
    const second = (await request(stack.url).post('/api/auth/login').send({ email: 'changer@example.com', password: PASSWORD })).body.data.token as string;
    const change = (token: string, body: object) => request(stack.url).put('/api/auth/password').set('Authorization', `Bearer ${token}`).send(body);

    const weak = await change(first, { current_password: PASSWORD, new_password: 'password' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.map((e: { field: string }) => e.field)).toEqual(['new_password']);

    const changed = await change(first, { current_password: PASSWORD, new_password: 'harbour-lantern-quiet-9' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true, message: 'Password changed', data: { token: expect.any(String) } });
    for (const old of [first, second]) expect((await me(stack.url, old)).status).toBe(401);
    expect((await me(stack.url, changed.body.data.token)).status).toBe(200);
    expect((await me(replicaServer, second)).status).toBe(401);
    expect((await me(replicaServer, changed.body.data.token)).status).toBe(200);
  });

  it('a gateway that never saw the member asks auth, and refuses a revoked token', async () => {
    const token = (await register('fresh@example.com', PASSWORD)).body.data.token as string;
    expect((await request(stack.url).post('/api/auth/logout').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    const late = await createGatewayApp(loadGatewayConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, LOG_LEVEL: 'silent', RATE_LIMITS: 'off', WEB_DIR: '/nonexistent' }), stack.serviceUrls);
    await late.init();
    try {
      expect((await feed(late.getHttpServer(), token)).status).toBe(401);
    } finally {
      await late.close();
    }
  });
});
