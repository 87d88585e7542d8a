import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailOutboxWorker } from '@app/platform';
import { createTestService, TestService } from '@app/testing';
import { PasswordResetService } from '../account/password-reset.service';
import { authService } from '../auth.service-definition';
import { passwordResetsCollection } from '../account/account.collections';
import { usersCollection } from '../users/user.collection';
import { totpCode } from '../account/totp';

describe('auth erasure (DELETE /api/users/me)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService(authService);
  });

  afterAll(() => svc.close());

  const PASSWORD = 'lamp-desk-battery-42';

  async function member(email: string): Promise<{ id: string; token: string }> {
    const res = await svc.http().post('/api/auth/register').send({ email, name: 'Erase Me', password: PASSWORD });
    return { id: res.body.data.user.id, token: res.body.data.token };
  }

  it('refuses a wrong password with a field error and keeps the account', async () => {
    const m = await member('wrong@example.com');
    const res = await svc.http().delete('/api/users/me').set('Authorization', `Bearer ${m.token}`).send({ password: 'not-my-password-1' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'password', messages: ['Password is incorrect'] }]);
    expect(await svc.store.collection(usersCollection).count({ _id: m.id })).toBe(1);
  });

  it('refuses a missing password with a 400 naming it', async () => {
    const m = await member('missing@example.com');
    const res = await svc.http().delete('/api/users/me').set('Authorization', `Bearer ${m.token}`).send({});
    expect(res.status).toBe(400);
    // Says what is wrong (issue 45 §8: it said "password must be shorter than or equal to 128 characters").
    expect(res.body.message).toBe('Password is required');
    expect(res.body.errors).toEqual([{ field: 'password', messages: ['Password is required'] }]);
  });

  it('asks a member with two-factor on for a code as well, and refuses a wrong or missing one (issue 43 §5)', async () => {
    const m = await member('twofactor@example.com');
    const auth = { Authorization: `Bearer ${m.token}` };
    const setup = await svc.http().post('/api/auth/2fa/setup').set(auth);
    const secret = new URL(setup.body.data.otpauth_url).searchParams.get('secret') as string;
    const now = () => Math.floor(Date.now() / 1000);
    expect((await svc.http().post('/api/auth/2fa/enable').set(auth).send({ code: totpCode(secret, now()) })).status).toBe(200);
    const remove = (body: object) => svc.http().delete('/api/users/me').set(auth).send(body);

    const missing = await remove({ password: PASSWORD });
    expect([missing.status, missing.body.code, missing.body.errors]).toEqual([400, 'TWO_FACTOR_CODE_REQUIRED', [{ field: 'code', messages: ['Enter the 6-digit code from your app or a recovery code'] }]]);
    const wrong = await remove({ password: PASSWORD, code: '000000' });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_TWO_FACTOR_CODE']);
    expect((await remove({ password: PASSWORD, code: 'not a code' })).status).toBe(400);
    // a good code with a wrong password erases nothing
    expect((await remove({ password: 'not-my-password-1', code: totpCode(secret, now() + 30) })).status).toBe(400);
    expect(await svc.store.collection(usersCollection).count({ _id: m.id })).toBe(1);

    expect((await remove({ password: PASSWORD, code: totpCode(secret, now() + 30) })).status).toBe(200);
    expect(await svc.store.collection(usersCollection).count({ _id: m.id })).toBe(0);
  });

  it('revokes every session, erases the credentials and announces user.deleted; the email is free again', async () => {
    const m = await member('gone@example.com');
    await svc.store.collection(passwordResetsCollection).insert({ _id: 'reset-1', user_id: m.id } as never);
    const res = await svc.http().delete('/api/users/me').set('Authorization', `Bearer ${m.token}`).send({ password: PASSWORD });
    expect(res.status).toBe(200);
    await svc.settle();
    expect(svc.emitted('auth.sessions_revoked')).toContainEqual({ userId: m.id, version: 1 });
    expect(svc.emitted('user.deleted')).toContainEqual({ userId: m.id });
    expect(await svc.store.collection(usersCollection).count({ _id: m.id })).toBe(0);
    expect(await svc.store.collection(passwordResetsCollection).count({ user_id: m.id })).toBe(0);

    const login = await svc.http().post('/api/auth/login').send({ email: 'gone@example.com', password: PASSWORD });
    expect(login.status).toBe(401);
    const again = await svc.http().delete('/api/users/me').set('Authorization', `Bearer ${m.token}`).send({ password: PASSWORD });
    expect(again.status).toBe(401);
    const reuse = await svc.http().post('/api/auth/register').send({ email: 'gone@example.com', name: 'New One', password: PASSWORD });
    expect(reuse.status).toBe(201);
    expect(reuse.body.data.user.id).not.toBe(m.id);
  });

  it('erases the same way when user.deleted is delivered twice', async () => {
    const m = await member('twice@example.com');
    await svc.publish('user.deleted', { userId: m.id });
    await svc.publish('user.deleted', { userId: m.id });
    expect(await svc.store.collection(usersCollection).count({ _id: m.id })).toBe(0);
  });
});

describe('auth erasure: mail files under DATA_DIR/mail (issue 31 §2)', () => {
  let svc: TestService;
  let dir: string;
  const PASSWORD = 'lamp-desk-battery-42';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'auth-erasure-'));
    svc = await createTestService(authService, { DATA_DIR: dir });
  });

  afterAll(async () => {
    await svc.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function mailedMember(email: string): Promise<{ id: string; token: string }> {
    const res = await svc.http().post('/api/auth/register').send({ email, name: 'Mail Me', password: PASSWORD });
    expect((await svc.http().post('/api/auth/password-reset').send({ email })).status).toBe(202);
    await svc.app.get(PasswordResetService).idle();
    await svc.app.get(MailOutboxWorker).drain();
    return { id: res.body.data.user.id, token: res.body.data.token };
  }

  const mailTo = async () => {
    const names = await readdir(join(dir, 'mail'));
    return Promise.all(names.map(async (n) => /^To: (.*)$/m.exec(await readFile(join(dir, 'mail', n), 'utf8'))?.[1]));
  };

  it("deletes the .eml files sent to the deleted member, and no one else's", async () => {
    const gone = await mailedMember('leaving@example.com');
    await mailedMember('staying@example.com');
    expect((await mailTo()).sort()).toEqual(['leaving@example.com', 'staying@example.com']);
    const res = await svc.http().delete('/api/users/me').set('Authorization', `Bearer ${gone.token}`).send({ password: PASSWORD });
    expect(res.status).toBe(200);
    await svc.settle();
    expect(await mailTo()).toEqual(['staying@example.com']);
  });
});
