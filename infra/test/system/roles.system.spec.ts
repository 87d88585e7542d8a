import { Socket } from 'socket.io-client';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { connectMember, Inbox, register, until, Member } from './chat-clients';
import { probe } from './http-probe';

/**
 * Issue 31 §1 through the gateway: an admin promotes, demotes and suspends a member whose tab and
 * socket stay open. The role applies on the member's next request with the token they hold and is
 * pushed to the socket; the suspension closes the socket and every service (not only the gateway)
 * refuses the token.
 */
describe('roles and cut-offs take effect at once (embedded stack)', () => {
  let stack: EmbeddedStack;
  let admin: Member;
  let member: Member;
  let socket: Socket;
  const inbox: Inbox = {};

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    admin = await register(stack.url, 'Ada'); // the first account is the admin
    member = await register(stack.url, 'Mert');
    await stack.settle();
    socket = await connectMember(stack.url, member, inbox);
  }, 30_000);

  afterAll(async () => {
    socket?.disconnect();
    await stack?.close();
  });

  const as = (who: Member, method: string, path: string, body?: unknown, base = stack.url) =>
    probe(base, { method, path, token: who.token, body, timeoutMs: 15_000 });
  const setRole = (role: string) => as(admin, 'PUT', `/api/moderation/roles/${member.id}`, { role, reason: 'issue 31' });

  it('a promotion applies to the token in use and reaches the open socket', async () => {
    expect((await as(member, 'GET', '/api/moderation/reports')).status).toBe(403);
    expect((await setRole('moderator')).status).toBe(200);
    await stack.settle();
    await until(() => (inbox['role-changed'] ?? []).length === 1, 'the role-changed push');
    expect(inbox['role-changed']).toEqual([{ role: 'moderator' }]);
    expect((await as(member, 'GET', '/api/moderation/reports')).status).toBe(200);
    const me = await as(member, 'GET', '/api/auth/me');
    expect([me.status, (me.json as { data: { role: string } }).data.role]).toEqual([200, 'moderator']);
    expect(socket.connected).toBe(true);
  });

  it('a demotion applies the same way, at the gateway and at the service reached directly', async () => {
    expect((await setRole('member')).status).toBe(200);
    await stack.settle();
    await until(() => (inbox['role-changed'] ?? []).length === 2, 'the second role-changed push');
    expect(inbox['role-changed']?.[1]).toEqual({ role: 'member' });
    expect((await as(member, 'GET', '/api/moderation/reports')).status).toBe(403);
    expect((await as(member, 'GET', '/api/moderation/reports', undefined, stack.serviceUrls.reviews)).status).toBe(403);
    expect((await as(member, 'GET', '/api/feed')).status).toBe(200);
  });

  it('a suspension closes the socket and every service refuses the token, not only the gateway', async () => {
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await as(admin, 'POST', `/api/moderation/suspensions/${member.id}`, { hours: 1, reason: 'Spam' })).status).toBe(201);
    await stack.settle();
    expect(await closed).toBe('io server disconnect');
    expect((await as(member, 'GET', '/api/feed')).status).toBe(401);
    const direct = {
      reviews: '/api/feed',
      social: '/api/users/stats',
      squads: '/api/squads/my-squads',
      messaging: '/api/messages/conversations',
      notifications: '/api/notifications',
      auth: '/api/auth/me',
    } as const;
    for (const [service, path] of Object.entries(direct)) {
      const res = await as(member, 'GET', path, undefined, stack.serviceUrls[service as keyof typeof direct]);
      expect([service, res.status]).toEqual([service, 401]);
    }
    // The admin's own session is untouched.
    expect((await as(admin, 'GET', '/api/feed')).status).toBe(200);
  });
});
