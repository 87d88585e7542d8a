import { MAILER, MemoryMailer, MailOutboxWorker } from '@app/platform';
import { createTestService, TestService } from '@app/testing';
import { authService } from '../auth.service-definition';
import { authMailCollection, passwordResetsCollection, twoFactorCollection } from './account.collections';
import { INVALID_RESET_LINK, mailLinkOrigin, PasswordResetService } from './password-reset.service';
import { sha256 } from './secret-box';
import { MAX_CODE_ATTEMPTS } from './two-factor.service';
import { totpCode } from './totp';

const PASSWORD = 'lamp-desk-battery-42';
const NEW_PASSWORD = 'violet-harbour-kettle-7';

describe('auth service: password reset and two-factor sign-in', () => {
  let svc: TestService;
  let mailer: MemoryMailer;

  beforeAll(async () => {
    svc = await createTestService(authService);
    mailer = svc.app.get(MAILER);
  });
  afterAll(() => svc.close());

  const register = async (email: string, name: string, language?: string) => {
    const res = await svc.http().post('/api/auth/register').send({ email, name, password: PASSWORD, ...(language ? { language } : {}) });
    expect(res.status).toBe(201);
    return res.body.data as { token: string; user: { id: string } };
  };
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const login = (email: string, password = PASSWORD) => svc.http().post('/api/auth/login').send({ email, password });

  /** Asks for a link and returns the token from the email that went out. */
  async function resetLinkFor(email: string, language?: string): Promise<{ token: string; subject: string; body: string }> {
    const before = mailer.sent.length;
    const res = await svc.http().post('/api/auth/password-reset').send({ email, ...(language ? { language } : {}) });
    expect(res.status).toBe(202);
    await svc.app.get(PasswordResetService).idle();
    await svc.app.get(MailOutboxWorker).drain();
    expect(mailer.sent.length).toBe(before + 1);
    const mail = mailer.sent[mailer.sent.length - 1];
    const token = /reset-password\?token=([\w-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    return { token: token as string, subject: mail.subject, body: mail.text };
  }

  describe('password reset', () => {
    it('answers the same for a known and an unknown email, and mails only the member', async () => {
      await register('reset1@example.com', 'Reset One');
      const before = mailer.sent.length;
      const known = await svc.http().post('/api/auth/password-reset').send({ email: 'reset1@example.com' });
      const unknown = await svc.http().post('/api/auth/password-reset').send({ email: 'nobody@example.com' });
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      await svc.app.get(PasswordResetService).idle();
      await svc.app.get(MailOutboxWorker).drain();
      expect(mailer.sent.slice(before).map((m) => m.to)).toEqual(['reset1@example.com']);
    });

    it('stores only a hash of the token, writes in the member\'s language, and forgets the sent body', async () => {
      await register('reset2@example.com', 'Reset Two', 'en');
      const { token, subject, body } = await resetLinkFor('reset2@example.com');
      expect(subject).toBe('Reset your SquadReviews password');
      expect(body).toContain('http://localhost:3000/reset-password?token=');
      const rows = await svc.store.collection(passwordResetsCollection).find({});
      expect(rows.some((r) => r._id === token)).toBe(false);
      expect(JSON.stringify(rows)).not.toContain(token);
      const outbox = await svc.store.collection(authMailCollection).find({ to: 'reset2@example.com' });
      expect(outbox.every((m) => m.sent_at && m.body === '')).toBe(true);
      expect((await resetLinkFor('reset2@example.com', 'tr')).subject).toBe('SquadReviews şifreni sıfırla');
    });

    it('keeps the account language of the sign-up, then the one chosen in Settings, for mails and the export', async () => {
      const { token, user } = await register('lang1@example.com', 'Lang One', 'tr');
      const exported = async () => (await svc.http().get('/api/auth/me/export').set(bearer(token))).body.data.account.language;
      expect(await exported()).toBe('tr');
      await svc.publish('user.settings_updated', { userId: user.id, notification_email: true, notification_push: true, privacy_profile: 'public', theme: 'system', language: 'en' });
      expect(await exported()).toBe('en');
      expect((await resetLinkFor('lang1@example.com')).subject).toBe('Reset your SquadReviews password');
      const { token: second } = await register('lang2@example.com', 'Lang Two');
      expect((await svc.http().get('/api/auth/me/export').set(bearer(second))).body.data.account.language).toBe('en');
    });

    it('sets the password once per link and ends every older session', async () => {
      const { token: session } = await register('reset3@example.com', 'Reset Three');
      const { token } = await resetLinkFor('reset3@example.com');
      const weak = await svc.http().post('/api/auth/password-reset/confirm').send({ token, new_password: 'password1' });
      expect(weak.status).toBe(400);
      expect(weak.body.errors.map((e: { field: string }) => e.field)).toEqual(['new_password']);
      const ok = await svc.http().post('/api/auth/password-reset/confirm').send({ token, new_password: NEW_PASSWORD });
      expect(ok.status).toBe(200);
      expect(svc.emitted('auth.sessions_revoked')).toContainEqual(expect.objectContaining({ version: 1 }));
      expect((await svc.http().get('/api/auth/me').set(bearer(session))).status).toBe(401);
      expect((await login('reset3@example.com')).status).toBe(401);
      expect((await login('reset3@example.com', NEW_PASSWORD)).status).toBe(200);
      const again = await svc.http().post('/api/auth/password-reset/confirm').send({ token, new_password: 'another-quiet-meadow-9' });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ message: INVALID_RESET_LINK, errors: [{ field: 'token' }] });
    });

    it('refuses an expired link, an unknown one, and one older than the last reset', async () => {
      await register('reset4@example.com', 'Reset Four');
      const first = await resetLinkFor('reset4@example.com');
      const second = await resetLinkFor('reset4@example.com');
      const expired = await resetLinkFor('reset4@example.com');
      await svc.store.collection(passwordResetsCollection).updateOne({ _id: sha256(expired.token) }, { $set: { expires_at: new Date(Date.now() - 1000).toISOString() } });
      const confirm = (token: string) => svc.http().post('/api/auth/password-reset/confirm').send({ token, new_password: NEW_PASSWORD });
      expect((await confirm(expired.token)).status).toBe(400);
      expect((await confirm('not-a-real-token')).status).toBe(400);
      expect((await confirm(second.token)).status).toBe(200);
      expect((await confirm(first.token)).status).toBe(400);
    });

    it.each([
      ['/api/auth/password-reset', { email: 'not-an-email' }, 'email'],
      ['/api/auth/password-reset', { email: 'a@b.co', language: 'de' }, 'language'],
      ['/api/auth/password-reset', { email: { $ne: null } }, 'email'],
      ['/api/auth/password-reset/confirm', { new_password: NEW_PASSWORD }, 'token'],
      ['/api/auth/password-reset/confirm', { token: 'x', new_password: 'short' }, 'new_password'],
    ])('%s refuses %j with a 400 naming %s', async (path, body, field) => {
      const res = await svc.http().post(path).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('two-factor sign-in', () => {
    let token: string;
    let secret: string;
    let recovery: string[];
    const email = 'totp@example.com';

    /** A code for the step after `offset` steps, as an authenticator app would show it. */
    const code = (offset = 0) => totpCode(secret, Math.floor(Date.now() / 1000) + offset * 30);

    beforeAll(async () => {
      token = (await register(email, 'Totp Member')).token;
    });

    it('enrols with a QR code and a first code, and shows ten recovery codes once', async () => {
      const setup = await svc.http().post('/api/auth/2fa/setup').set(bearer(token));
      expect(setup.status).toBe(200);
      expect(setup.body.data.qr_code).toMatch(/^data:image\/png;base64,/);
      secret = new URL(setup.body.data.otpauth_url).searchParams.get('secret') as string;
      expect(setup.body.data.otpauth_url).toContain('issuer=SquadReviews');
      expect(JSON.stringify(await svc.store.collection(twoFactorCollection).find({}))).not.toContain(secret);

      expect((await svc.http().post('/api/auth/2fa/enable').set(bearer(token)).send({ code: '000000' })).status).toBe(400);
      const enabled = await svc.http().post('/api/auth/2fa/enable').set(bearer(token)).send({ code: code() });
      expect(enabled.status).toBe(200);
      recovery = enabled.body.data.recovery_codes;
      expect(recovery).toHaveLength(10);
      expect(new Set(recovery).size).toBe(10);
      expect(JSON.stringify(await svc.store.collection(twoFactorCollection).find({}))).not.toContain(recovery[0]);
      const status = await svc.http().get('/api/auth/2fa').set(bearer(token));
      expect(status.body.data).toEqual({ enabled: true, recovery_codes_left: 10 });
      expect((await svc.http().post('/api/auth/2fa/setup').set(bearer(token))).status).toBe(409);
    });

    it('login asks for the code instead of giving a token; the code signs in once', async () => {
      const first = await login(email);
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ two_factor_required: true, challenge: expect.any(String) });
      expect(first.body.data.token).toBeUndefined();
      const next = code(1);
      const ok = await svc.http().post('/api/auth/2fa/verify').send({ challenge: first.body.data.challenge, code: next });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ token: expect.any(String), user: { email } });
      // The challenge is spent, and the same code is not accepted twice.
      expect((await svc.http().post('/api/auth/2fa/verify').send({ challenge: first.body.data.challenge, code: next })).status).toBe(400);
      const second = await login(email);
      const replay = await svc.http().post('/api/auth/2fa/verify').send({ challenge: second.body.data.challenge, code: next });
      expect(replay.status).toBe(400);
      expect(replay.body.errors[0].field).toBe('code');
    });

    it('a recovery code works once', async () => {
      const a = await login(email);
      const ok = await svc.http().post('/api/auth/2fa/verify').send({ challenge: a.body.data.challenge, code: recovery[0].toUpperCase() });
      expect(ok.status).toBe(200);
      const b = await login(email);
      expect((await svc.http().post('/api/auth/2fa/verify').send({ challenge: b.body.data.challenge, code: recovery[0] })).status).toBe(400);
      expect((await svc.http().get('/api/auth/2fa').set(bearer(token))).body.data.recovery_codes_left).toBe(9);
    });

    it(`a challenge dies after ${MAX_CODE_ATTEMPTS} wrong codes`, async () => {
      const { challenge } = (await login(email)).body.data;
      for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
        expect((await svc.http().post('/api/auth/2fa/verify').send({ challenge, code: '000000' })).body.errors[0].field).toBe('code');
      }
      const dead = await svc.http().post('/api/auth/2fa/verify').send({ challenge, code: code() });
      expect(dead.status).toBe(400);
      expect(dead.body.errors[0].field).toBe('challenge');
    });

    it('disabling needs the password; then login gives a token again', async () => {
      const wrong = await svc.http().post('/api/auth/2fa/disable').set(bearer(token)).send({ password: 'wrong-password' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors[0].field).toBe('password');
      expect((await svc.http().post('/api/auth/2fa/disable').set(bearer(token)).send({ password: PASSWORD })).status).toBe(200);
      expect((await login(email)).body.data.token).toEqual(expect.any(String));
    });

    it.each([
      ['/api/auth/2fa/enable', { code: '12345' }, 'code'],
      ['/api/auth/2fa/enable', { code: 123456 }, 'code'],
      ['/api/auth/2fa/verify', { code: '123456' }, 'challenge'],
      ['/api/auth/2fa/verify', { challenge: 'x', code: 'drop table' }, 'code'],
      ['/api/auth/2fa/disable', {}, 'password'],
    ])('%s refuses %j with a 400 naming %s', async (path, body, field) => {
      const res = await svc.http().post(path).set(bearer(token)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });
});

describe('links in e-mails come from the site origin (APP_ORIGIN)', () => {
  it('points the reset link at APP_ORIGIN, whatever the deprecated APP_URL says', async () => {
    const svc = await createTestService(authService, { APP_ORIGIN: 'https://squad.example', APP_URL: 'https://old-address.example' });
    try {
      const mailer: MemoryMailer = svc.app.get(MAILER);
      expect((await svc.http().post('/api/auth/register').send({ email: 'origin@example.com', name: 'Origin', password: PASSWORD })).status).toBe(201);
      await svc.http().post('/api/auth/password-reset').send({ email: 'origin@example.com' });
      await svc.app.get(PasswordResetService).idle();
      await svc.app.get(MailOutboxWorker).drain();
      expect(mailer.sent.at(-1)?.text).toMatch(/https:\/\/squad\.example\/reset-password\?token=[\w-]{43}\s/);
      expect(mailer.sent.at(-1)?.text).not.toContain('old-address');
    } finally {
      await svc.close();
    }
  });

  it('reads APP_URL only while APP_ORIGIN is unset, without a trailing slash either way', () => {
    expect(mailLinkOrigin({ APP_ORIGIN: 'https://squad.example/', APP_URL: 'http://localhost:3000' })).toBe('https://squad.example');
    expect(mailLinkOrigin({ APP_ORIGIN: undefined, APP_URL: 'https://legacy.example/' })).toBe('https://legacy.example');
  });
});
