import { JwtService } from '@nestjs/jwt';
import { createTestService, TestService } from '@app/testing';
import { authService } from '../auth.service-definition';

const PASSWORD = 'lamp-desk-battery-42';
const claims = (token: string) => new JwtService({}).decode(token) as { role?: string; ver?: number };

describe('site roles and suspensions (issue 22 §3)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService(authService, { ADMIN_EMAILS: ' Boss@Example.com , other@example.com' });
  });

  afterAll(() => svc.close());

  const register = (email: string, name: string) =>
    svc.http().post('/api/auth/register').send({ email, name, password: PASSWORD });
  const login = (email: string) => svc.http().post('/api/auth/login').send({ email, password: PASSWORD });

  it('makes the first account an admin and later ones members, with the role in the token and /auth/me', async () => {
    const first = await register('first@example.com', 'First Person');
    expect(first.body.data.user.role).toBe('admin');
    expect(claims(first.body.data.token).role).toBe('admin');
    const second = await register('second@example.com', 'Second Person');
    expect(second.body.data.user.role).toBe('member');
    expect(claims(second.body.data.token).role).toBe('member');
    await svc.settle();
    expect(svc.emitted('user.registered').map((e) => e.role)).toEqual(['admin', 'member']);
    const me = await svc.http().get('/api/auth/me').set({ Authorization: `Bearer ${second.body.data.token}` });
    expect(me.body.data.role).toBe('member');
  });

  it('makes an ADMIN_EMAILS address an admin, whatever its case', async () => {
    const boss = await register('boss@example.com', 'Big Boss');
    expect(boss.body.data.user.role).toBe('admin');
  });

  it('applies an appointment without ending a session: the token in use goes on with the new role, the next one carries it; admins are not demoted', async () => {
    const third = await register('third@example.com', 'Third Person');
    const old = { Authorization: `Bearer ${third.body.data.token}` };
    await svc.settle();
    const revocations = svc.emitted('auth.sessions_revoked').length;
    await svc.publish('moderation.role_changed', { userId: third.body.data.user.id, role: 'moderator' });
    const me = await svc.http().get('/api/auth/me').set(old);
    expect([me.status, me.body.data.role]).toEqual([200, 'moderator']);
    await svc.settle();
    expect(svc.emitted('auth.sessions_revoked')).toHaveLength(revocations);
    const again = await login('third@example.com');
    expect(claims(again.body.data.token).role).toBe('moderator');

    const boss = (await login('boss@example.com')).body.data;
    await svc.publish('moderation.role_changed', { userId: boss.user.id, role: 'member' });
    expect(claims((await login('boss@example.com')).body.data.token).role).toBe('admin');
  });

  it('suspends a member: tokens revoked at once, login refused with until and why, and it ends by itself', async () => {
    const res = await register('fourth@example.com', 'Fourth Person');
    const old = { Authorization: `Bearer ${res.body.data.token}` };
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await svc.publish('moderation.member_suspended', { userId: res.body.data.user.id, until, reason: 'Spam links' });
    expect((await svc.http().get('/api/auth/me').set(old)).status).toBe(401);
    const refused = await login('fourth@example.com');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      code: 'ACCOUNT_SUSPENDED',
      message: `Your account is suspended until ${until}: Spam links`,
    });
    // A wrong password still gets the same answer as for anyone: the suspension is not revealed.
    expect((await svc.http().post('/api/auth/login').send({ email: 'fourth@example.com', password: 'wrong-password-1' })).status).toBe(401);

    // A suspension whose time has passed refuses nothing (no job has to lift it).
    await svc.publish('moderation.member_suspended', { userId: res.body.data.user.id, until: new Date(Date.now() - 1000).toISOString(), reason: 'Ended' });
    expect((await login('fourth@example.com')).status).toBe(200);
  });
});
