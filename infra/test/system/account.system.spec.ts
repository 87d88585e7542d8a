import request from 'supertest';
import { ReceivedMail, SmtpInbox, startSmtpInbox } from '@app/testing/engines';
import { totpCode } from '../../../services/auth/src/account/totp';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/**
 * Issue 20 §1-3 through the gateway: password reset mails arrive over real SMTP (an in-process
 * smtp-server), the link is single-use and ends older sessions; two-factor sign-in needs the
 * code, and a recovery code works once.
 */

const PASSWORD = 'quiet-harbour-lantern-7';
const NEW_PASSWORD = 'amber-rooftop-violin-3';

describe('account lifecycle: reset by email and two-factor sign-in (embedded stack, real SMTP)', () => {
  let stack: EmbeddedStack;
  let smtp: SmtpInbox;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    stack = await startEmbeddedStack({
      port: 0,
      dataDir: ':memory:',
      seed: false,
      env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', SMTP_URL: smtp.url, APP_ORIGIN: 'https://squad.example' },
    });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.close();
  });

  const api = () => request(stack.url);
  const register = (email: string) => api().post('/api/auth/register').send({ email, name: 'Account Member', password: PASSWORD });
  const login = (email: string, password = PASSWORD) => api().post('/api/auth/login').send({ email, password });

  async function mailTo(address: string, count: number): Promise<ReceivedMail[]> {
    for (let i = 0; i < 100; i++) {
      const mails = smtp.received.filter((m) => m.to.includes(address));
      if (mails.length >= count) return mails;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail ${count} to ${address}`);
  }
  /** The body as a reader sees it: quoted-printable soft breaks and escapes undone. */
  const decoded = (mail: ReceivedMail) => mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const tokenIn = (mail: ReceivedMail) => /reset-password\?token=([\w-]+)/.exec(decoded(mail))?.[1] as string;
  const confirm = (token: string, new_password = NEW_PASSWORD) => api().post('/api/auth/password-reset/confirm').send({ token, new_password });

  describe('password reset', () => {
    it('answers an unknown email exactly as a known one, and mails only the member', async () => {
      await register('known@example.com').expect(201);
      // Asked from a Turkish page: the mail's subject is Turkish, so it goes out encoded.
      const known = await api().post('/api/auth/password-reset').send({ email: 'known@example.com', language: 'tr' });
      const unknown = await api().post('/api/auth/password-reset').send({ email: 'stranger@example.com', language: 'tr' });
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      const [mail] = await mailTo('known@example.com', 1);
      expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(decoded(mail)).toMatch(/https:\/\/squad\.example\/reset-password\?token=[\w-]{43}\s/);
      await new Promise((r) => setTimeout(r, 300));
      expect(smtp.received.filter((m) => m.to.includes('stranger@example.com'))).toEqual([]);
    });

    it('the link sets the password once and revokes the old token; then only the new password works', async () => {
      const old = (await register('resetter@example.com').expect(201)).body.data.token as string;
      await api().post('/api/auth/password-reset').send({ email: 'resetter@example.com', language: 'en' }).expect(202);
      const [mail] = await mailTo('resetter@example.com', 1);
      expect(mail.raw).toContain('Subject: Reset your SquadReviews password');
      const token = tokenIn(mail);
      expect((await confirm(token)).status).toBe(200);
      expect((await api().get('/api/feed').set('Authorization', `Bearer ${old}`)).status).toBe(401);
      const again = await confirm(token, 'another-quiet-meadow-9');
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ success: false, errors: [{ field: 'token' }] });
      expect((await login('resetter@example.com')).status).toBe(401);
      expect((await login('resetter@example.com', NEW_PASSWORD)).status).toBe(200);
    });

    it('refuses an expired link (stored 30 minutes) and a made-up one', async () => {
      await register('late@example.com').expect(201);
      await api().post('/api/auth/password-reset').send({ email: 'late@example.com' }).expect(202);
      const token = tokenIn((await mailTo('late@example.com', 1))[0]);
      const realNow = Date.now;
      Date.now = () => realNow() + 31 * 60_000;
      try {
        expect((await confirm(token)).status).toBe(400);
      } finally {
        Date.now = realNow;
      }
      expect((await confirm('made-up-token')).status).toBe(400);
      expect((await confirm(token)).status).toBe(200);
    });
  });

  describe('two-factor sign-in', () => {
    it('enrolled: login needs the code; a recovery code works once; disabled: the token comes back', async () => {
      const token = (await register('twofa@example.com').expect(201)).body.data.token as string;
      const auth = { Authorization: `Bearer ${token}` };
      const setup = await api().post('/api/auth/2fa/setup').set(auth).expect(200);
      const secret = new URL(setup.body.data.otpauth_url).searchParams.get('secret') as string;
      const enabled = await api().post('/api/auth/2fa/enable').set(auth).send({ code: totpCode(secret) }).expect(200);
      const recovery = enabled.body.data.recovery_codes as string[];
      expect(recovery).toHaveLength(10);

      const first = await login('twofa@example.com').expect(200);
      expect(first.body.data).toEqual({ two_factor_required: true, challenge: expect.any(String) });
      // The challenge is no token: the gateway refuses it.
      expect((await api().get('/api/feed').set('Authorization', `Bearer ${first.body.data.challenge}`)).status).toBe(401);
      const wrong = await api().post('/api/auth/2fa/verify').send({ challenge: first.body.data.challenge, code: '000000' });
      expect(wrong.status).toBe(400);
      const signedIn = await api()
        .post('/api/auth/2fa/verify')
        .send({ challenge: first.body.data.challenge, code: totpCode(secret, Math.floor(Date.now() / 1000) + 30) })
        .expect(200);
      expect((await api().get('/api/feed').set('Authorization', `Bearer ${signedIn.body.data.token}`)).status).toBe(200);

      const second = await login('twofa@example.com').expect(200);
      await api().post('/api/auth/2fa/verify').send({ challenge: second.body.data.challenge, code: recovery[3] }).expect(200);
      const third = await login('twofa@example.com').expect(200);
      expect((await api().post('/api/auth/2fa/verify').send({ challenge: third.body.data.challenge, code: recovery[3] })).status).toBe(400);

      expect((await api().post('/api/auth/2fa/disable').set(auth).send({ password: 'not-the-password' })).status).toBe(400);
      await api().post('/api/auth/2fa/disable').set(auth).send({ password: PASSWORD }).expect(200);
      expect((await login('twofa@example.com').expect(200)).body.data.token).toEqual(expect.any(String));
    });
  });
});
