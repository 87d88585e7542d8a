import { createTestService, TestService } from '@app/testing';
import { authService } from '../auth.service-definition';
import { usersCollection } from '../users/user.collection';

describe('auth service (HTTP)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService(authService);
  });

  afterAll(() => svc.close());

  const register = (body: Record<string, unknown>) => svc.http().post('/api/auth/register').send(body);

  it('registers a member: 201 with a token and the user, and announces user.registered', async () => {
    const res = await register({ email: 'Ayse@Example.com ', name: 'Ayşe Yılmaz', password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data.token).toEqual(expect.any(String));
    expect(res.body.data.user).toMatchObject({
      username: 'ayse_yilmaz',
      email: 'ayse@example.com',
      display_name: 'Ayşe Yılmaz',
      name: 'Ayşe Yılmaz',
      avatar: null,
    });
    expect(res.body.data.user).not.toHaveProperty('password_hash');
    await svc.settle();
    expect(svc.emitted('user.registered')).toEqual([
      expect.objectContaining({ username: 'ayse_yilmaz', email: 'ayse@example.com' }),
    ]);
  });

  it('derives a different username when the name is taken', async () => {
    const res = await register({ email: 'ayse2@example.com', name: 'Ayşe Yılmaz', password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    expect(res.body.data.user.username).toBe('ayse_yilmaz2');
  });

  it('answers a duplicate email with 409', async () => {
    const res = await register({ email: 'ayse@example.com', name: 'Other', password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
  });

  it.each([
    [{ name: 'A', password: 'lamp-desk-battery-42' }, 'email'],
    [{ email: 'not-an-email', name: 'A', password: 'lamp-desk-battery-42' }, 'email'],
    [{ email: 'a@b.co', name: '   ', password: 'lamp-desk-battery-42' }, 'name'],
    [{ email: 'a@b.co', name: 'A', password: '123' }, 'password'],
    [{ email: 'a@b.co', name: 'A', password: 12345678 }, 'password'],
    [{ email: 'a@b.co', name: 'A'.repeat(81), password: 'lamp-desk-battery-42' }, 'name'],
    [{ email: 'a@b.co', name: 'A', password: 'lamp-desk-battery-42', role: 'admin' }, 'role'],
    [{ email: { $ne: null }, name: 'A', password: 'lamp-desk-battery-42' }, 'email'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const res = await svc.http().post('/api/auth/register').set('Content-Type', 'application/json').send('{"email":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: 'Malformed JSON body', code: 'BAD_REQUEST' });
  });

  it('logs in with the right password and refuses wrong password and unknown email alike', async () => {
    const ok = await svc.http().post('/api/auth/login').send({ email: 'AYSE@example.com', password: 'lamp-desk-battery-42' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.username).toBe('ayse_yilmaz');

    const wrong = await svc.http().post('/api/auth/login').send({ email: 'ayse@example.com', password: 'nope-nope' });
    const unknown = await svc.http().post('/api/auth/login').send({ email: 'nobody@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ success: false, message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
  });

  it('returns the signed-in member from /auth/me and refuses missing or forged tokens', async () => {
    const login = await svc.http().post('/api/auth/login').send({ email: 'ayse@example.com', password: 'lamp-desk-battery-42' });
    const token = login.body.data.token as string;
    const me = await svc.http().get('/api/auth/me').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ username: 'ayse_yilmaz', email: 'ayse@example.com' });

    expect((await svc.http().get('/api/auth/me')).status).toBe(401);
    const [h, p] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    expect((await svc.http().get('/api/auth/me').set('Authorization', `Bearer ${none}`)).status).toBe(401);
    expect((await svc.http().get('/api/auth/me').set('Authorization', `Bearer ${h}.${p}.forged`)).status).toBe(401);
  });

  it('lists users with public fields only, to staff only (issue 45 §8: any member listed every account)', async () => {
    const member = await svc.http().post('/api/auth/login').send({ email: 'ayse2@example.com', password: 'lamp-desk-battery-42' });
    expect(member.body.data.user.role).toBe('member');
    const refused = await svc.http().get('/api/auth/users').set('Authorization', `Bearer ${member.body.data.token}`);
    expect([refused.status, refused.body.code, refused.body.data]).toEqual([403, 'MODERATOR_ONLY', undefined]);
    // The first account is the admin.
    const login = await svc.http().post('/api/auth/login').send({ email: 'ayse@example.com', password: 'lamp-desk-battery-42' });
    const res = await svc.http().get('/api/auth/users').set('Authorization', `Bearer ${login.body.data.token}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 2, page: 1 });
    for (const user of res.body.data) {
      expect(Object.keys(user).sort()).toEqual(['avatar', 'display_name', 'id', 'name', 'username']);
    }
  });

  it('follows profile renames from user.updated', async () => {
    const login = await svc.http().post('/api/auth/login').send({ email: 'ayse@example.com', password: 'lamp-desk-battery-42' });
    const id = login.body.data.user.id as string;
    await svc.publish('user.updated', { userId: id, username: 'ayse', display_name: 'Ayşe', bio: '', profile_image_url: null });
    const me = await svc.http().get('/api/auth/me').set(svc.authHeader({ id, username: 'ayse' }));
    expect(me.body.data).toMatchObject({ username: 'ayse', display_name: 'Ayşe' });
  });

  it.each(['123456', 'aaaaaa', '      ', 'password', 'password1', 'demo1234', '12345678', 'qwertyuiop', 'ayse.weak@example.com'])(
    'refuses the weak password %j with a 400 naming password (NIST 800-63B)',
    async (password) => {
      const res = await register({ email: 'ayse.weak@example.com', name: 'Weak Ayse', password });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.errors).toEqual([{ field: 'password', messages: expect.arrayContaining([expect.stringMatching(/^Password /)]) }]);
    },
  );

  it("tells the account's language in effect at sign-in and on /auth/me: English for a member from before the language work (issue 43)", async () => {
    const created = await register({ email: 'lang-me@example.com', name: 'Lang Me', password: 'lamp-desk-battery-42', language: 'tr' });
    const { token, user } = created.body.data as { token: string; user: { id: string; language: string } };
    expect(user.language).toBe('tr');
    const me = async () => (await svc.http().get('/api/auth/me').set('Authorization', `Bearer ${token}`)).body.data.language;
    expect(await me()).toBe('tr');
    // as an account stored before accounts kept a language: its mail is in the default, and so is what it is told
    await svc.store.collection(usersCollection).updateOne({ _id: user.id }, { $unset: { language: '' } });
    expect(await me()).toBe('en');
    const login = await svc.http().post('/api/auth/login').send({ email: 'lang-me@example.com', password: 'lamp-desk-battery-42' });
    expect(login.body.data.user.language).toBe('en');
    await svc.publish('user.settings_updated', { userId: user.id, notification_email: true, notification_push: true, privacy_profile: 'public', theme: 'system', language: 'tr' });
    expect(await me()).toBe('tr');
  });

  describe('sessions', () => {
    const PASSWORD = 'quiet-harbour-lantern-7';
    let token: string;
    let id: string;
    const as = (t: string) => ({ Authorization: `Bearer ${t}` });

    beforeAll(async () => {
      const res = await register({ email: 'sessions@example.com', name: 'Session Person', password: PASSWORD });
      token = res.body.data.token;
      id = res.body.data.user.id;
    });

    it('reports the session version, logs out, and refuses every token of the member after', async () => {
      const second = (await svc.http().post('/api/auth/login').send({ email: 'sessions@example.com', password: PASSWORD })).body.data.token as string;
      expect((await svc.http().get('/api/auth/session').set(as(token))).body).toEqual({ success: true, data: { session_version: 0 } });
      const out = await svc.http().post('/api/auth/logout').set(as(token));
      expect(out.status).toBe(200);
      expect(out.body).toMatchObject({ success: true, message: 'Logged out' });
      await svc.settle();
      expect(svc.emitted('auth.sessions_revoked')).toEqual([{ userId: id, version: 1 }]);
      for (const old of [token, second]) {
        const me = await svc.http().get('/api/auth/me').set(as(old));
        expect(me.status).toBe(401);
        expect(me.body).toEqual({ success: false, message: 'Invalid or expired token', code: 'INVALID_TOKEN' });
      }
      expect((await svc.http().post('/api/auth/logout').set(as(token))).status).toBe(401);
      const again = await svc.http().post('/api/auth/login').send({ email: 'sessions@example.com', password: PASSWORD });
      token = again.body.data.token;
      expect((await svc.http().get('/api/auth/session').set(as(token))).body.data).toEqual({ session_version: 1 });
    });

    it('changes the password: a wrong current one or a weak new one is a 400 naming the field', async () => {
      const wrong = await svc.http().put('/api/auth/password').set(as(token)).send({ current_password: 'not-it-at-all', new_password: 'another-quiet-harbour-8' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe('WRONG_CURRENT_PASSWORD');
      expect(wrong.body.errors).toEqual([{ field: 'current_password', messages: ['Current password is incorrect'] }]);
      const weak = await svc.http().put('/api/auth/password').set(as(token)).send({ current_password: PASSWORD, new_password: 'password1' });
      expect(weak.status).toBe(400);
      expect(weak.body.code).toBe('WEAK_PASSWORD');
      expect(weak.body.errors.map((e: { field: string }) => e.field)).toEqual(['new_password']);
      const short = await svc.http().put('/api/auth/password').set(as(token)).send({ current_password: PASSWORD, new_password: 'x1' });
      expect(short.body.errors.map((e: { field: string }) => e.field)).toEqual(['new_password']);
      // Neither attempt ended the session.
      expect((await svc.http().get('/api/auth/me').set(as(token))).status).toBe(200);
    });

    it('changes the password: older tokens are revoked, the fresh token and the new password work', async () => {
      const res = await svc.http().put('/api/auth/password').set(as(token)).send({ current_password: PASSWORD, new_password: 'another-quiet-harbour-8' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, data: { token: expect.any(String) } });
      expect((await svc.http().get('/api/auth/me').set(as(token))).status).toBe(401);
      expect((await svc.http().get('/api/auth/me').set(as(res.body.data.token))).status).toBe(200);
      expect((await svc.http().post('/api/auth/login').send({ email: 'sessions@example.com', password: PASSWORD })).status).toBe(401);
      expect((await svc.http().post('/api/auth/login').send({ email: 'sessions@example.com', password: 'another-quiet-harbour-8' })).status).toBe(200);
    });
  });
});
