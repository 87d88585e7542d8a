// Issue 20 in Chromium: a password reset from the login modal to the emailed link's page, and
// two-factor enrolment in Settings followed by a sign-in with the code, the data download, and
// deleting the account from Settings.
import { readFile } from 'node:fs/promises';
import { SmtpInbox, startSmtpInbox } from '@app/testing/engines';
import { totpCode } from '../../../services/auth/src/account/totp';
import { apiCall, browserAvailable, contextFor, register, shot, startWorld, type World } from './harness';

jest.setTimeout(120_000);

const run = browserAvailable() ? describe : describe.skip;

run('account lifecycle in the browser', () => {
  let world: World;
  let smtp: SmtpInbox;
  const savedSmtp = process.env.SMTP_URL;

  beforeAll(async () => {
    smtp = await startSmtpInbox();
    // The embedded stack reads its settings from the environment: mail goes to this server.
    process.env.SMTP_URL = smtp.url;
    world = await startWorld();
  });
  afterAll(async () => {
    await world?.close();
    await smtp?.close();
    if (savedSmtp === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = savedSmtp;
  });

  async function resetTokenFor(email: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const mail = smtp.received.find((m) => m.to.includes(email));
      if (mail) {
        const text = mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        return /reset-password\?token=([\w-]+)/.exec(text)?.[1] as string;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no reset mail to ${email}`);
  }

  test('forgot password: the modal asks for the link, the link\'s page sets a new password, the old one stops working', async () => {
    const member = await register(world, 'Reset Browser');
    const { context, page } = await contextFor(world);
    await page.goto('/login');
    await page.getByTestId('forgot-password').click();
    const forgot = page.getByTestId('forgot-form');
    await forgot.getByLabel('Email').fill(member.email);
    await forgot.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByTestId('forgot-sent').waitFor();
    await shot(page, 'account-01-forgot-sent');

    const token = await resetTokenFor(member.email);
    await page.goto(`/reset-password?token=${token}`);
    const form = page.getByTestId('reset-password');
    await form.getByLabel('New Password', { exact: true }).fill('weak');
    await form.getByLabel('Confirm New Password').fill('weak');
    await form.getByRole('button', { name: 'Reset password' }).click();
    await page.getByTestId('reset-error').waitFor();
    await form.getByLabel('New Password', { exact: true }).fill('copper-lantern-orchard-5');
    await form.getByLabel('Confirm New Password').fill('copper-lantern-orchard-5');
    await form.getByRole('button', { name: 'Reset password' }).click();
    await page.getByTestId('reset-done').waitFor();
    await shot(page, 'account-02-reset-done');

    await page.getByRole('link', { name: 'Log in with the new one' }).click();
    const login = page.getByTestId('auth-form');
    await login.getByLabel('Email').fill(member.email);
    await login.getByLabel('Password').fill(member.password);
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.getByTestId('auth-error').waitFor();
    await login.getByLabel('Password').fill('copper-lantern-orchard-5');
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/home');
    await context.close();
  });

  test('two-factor: enrol in Settings with the QR code, keep the recovery codes, then sign in with a code', async () => {
    const member = await register(world, 'Totp Browser');
    const signedIn = await contextFor(world, member);
    const page = signedIn.page;
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Two-factor', exact: true }).click();
    const section = page.getByTestId('settings-two-factor');
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = section.getByTestId('two-factor-qr');
    await qr.waitFor();
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await qr.elementHandle());
    await shot(page, 'account-03-two-factor-qr');

    // The app would read the secret from the QR code; the test reads it from the setup reply.
    const secret = await page.evaluate(async (token) => {
      const r = await fetch('/api/auth/2fa/setup', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      return new URL((await r.json()).data.otpauth_url).searchParams.get('secret') as string;
    }, member.token);
    await section.getByLabel('Code').fill(totpCode(secret));
    await section.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = section.getByTestId('recovery-codes').locator('code');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    await shot(page, 'account-04-recovery-codes');
    await signedIn.context.close();

    const { context, page: fresh } = await contextFor(world);
    await fresh.goto('/login');
    const login = fresh.getByTestId('auth-form');
    await login.getByLabel('Email').fill(member.email);
    await login.getByLabel('Password').fill(member.password);
    await login.getByRole('button', { name: 'Log In' }).click();
    const step = fresh.getByTestId('two-factor-form');
    await step.waitFor();
    await step.getByLabel('Code').fill('000000');
    await step.getByRole('button', { name: 'Verify' }).click();
    await step.getByTestId('auth-error').waitFor();
    await shot(fresh, 'account-05-two-factor-step');
    await step.getByLabel('Code').fill(totpCode(secret, Math.floor(Date.now() / 1000) + 30));
    await step.getByRole('button', { name: 'Verify' }).click();
    await fresh.waitForURL('**/home');
    await context.close();
  });

  test('Settings > Privacy downloads the member\'s data as one JSON file', async () => {
    const member = await register(world, 'Export Browser');
    const { context, page } = await contextFor(world, member);
    await page.goto('/settings');
    await page.getByRole('button', { name: /Privacy|Gizlilik/ }).click();
    const section = page.getByTestId('settings-export');
    await shot(page, 'account-06-export');
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^squadreviews-export-\d{4}-\d\d-\d\d\.json$/);
    const exported = JSON.parse(await readFile((await download.path()) as string, 'utf8'));
    expect(exported.auth.account).toMatchObject({ id: member.id, email: member.email });
    expect(Object.keys(exported)).toEqual(expect.arrayContaining(['social', 'reviews', 'squads', 'messaging', 'notifications']));
    await context.close();
  });

  test('Settings > Delete account: a wrong password is refused, the right one erases the account and the tab lands signed out on the public page', async () => {
    const member = await register(world, 'Leaving Browser');
    await apiCall(world, 'POST', '/reviews', member.token, { title: 'Last words', content: 'Goodbye, kettle.' });
    const { context, page } = await contextFor(world, member);
    await page.goto('/settings');
    await page.getByRole('button', { name: /Delete account/ }).click();
    const section = page.getByTestId('settings-delete-account');
    await section.getByRole('note').waitFor();
    const password = section.getByLabel(/Your password, to confirm/);
    const confirm = section.getByRole('button', { name: /Delete my account permanently/ });
    await password.fill('not-my-password-7');
    await confirm.click();
    await section.getByRole('alert').waitFor();
    expect(await section.getByRole('alert').textContent()).toMatch(/password is incorrect/);
    await shot(page, 'account-07-delete-wrong-password');

    await password.fill(member.password);
    await confirm.click();
    await page.getByRole('heading', { name: 'Find Squads for Everything You Love' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await shot(page, 'account-08-deleted-landing');

    // The account is gone: the old token is refused and the password no longer signs in.
    await expect(apiCall(world, 'GET', '/auth/me', member.token)).rejects.toThrow(/-> 401/);
    await expect(apiCall(world, 'POST', '/auth/login', undefined, { email: member.email, password: member.password })).rejects.toThrow(/-> 401/);
    await context.close();
  });
});
