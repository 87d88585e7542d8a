import { createTestService, TestService } from '@app/testing';
import { authService } from '../auth.service-definition';

/** Issue 45 §2, §3 at registration: one address is one member, and a name shows something. */
describe('look-alike addresses and invisible names', () => {
  let svc: TestService;
  const PASSWORD = 'lamp-desk-battery-42';

  beforeAll(async () => {
    svc = await createTestService(authService, { ADMIN_EMAILS: 'ＢOSS@example.com' });
    expect((await register('ayse@demo.local', 'Ayşe')).status).toBe(201);
  });

  afterAll(() => svc.close());

  function register(email: string, name: string) {
    return svc.http().post('/api/auth/register').send({ email, name, password: PASSWORD });
  }
  const fieldErrors = (res: { body: { errors?: { field: string; messages: string[] }[] } }) =>
    Object.fromEntries((res.body.errors ?? []).map((e) => [e.field, e.messages]));

  it('answers a fullwidth spelling of a taken address as the address it is: taken', async () => {
    const res = await register('ａyse@demo.local', 'Other');
    expect([res.status, res.body.code]).toEqual([409, 'EMAIL_TAKEN']);
    const upper = await register('AYSE@ＤＥＭＯ.LOCAL', 'Other');
    expect([upper.status, upper.body.code]).toEqual([409, 'EMAIL_TAKEN']);
  });

  it('refuses a non-ASCII or invisible address with a field error that says why', async () => {
    const turkish = await register('ayşe@demo.local', 'Other');
    expect(turkish.status).toBe(400);
    expect(fieldErrors(turkish).email).toContain('Email must use Latin letters, digits and punctuation only (an international domain in its xn-- form)');
    for (const hidden of ['ayse\u200b@demo.local', 'ayse\u202e@demo.local', 'ay\u0000se@demo.local']) {
      const res = await register(hidden, 'Other');
      expect(res.status).toBe(400);
      expect(fieldErrors(res).email).toContain('Email must not contain invisible or control characters');
    }
  });

  it('signs the member in whichever width or case the address is typed in', async () => {
    const res = await svc.http().post('/api/auth/login').send({ email: ' ＡＹＳＥ@demo.local', password: PASSWORD });
    expect([res.status, res.body.data?.user?.email]).toEqual([200, 'ayse@demo.local']);
  });

  it('reads ADMIN_EMAILS in the same normal form', async () => {
    const res = await register('boss@example.com', 'The Boss');
    expect(res.body.data.user.role).toBe('admin');
  });

  it.each([
    ['\u200B', 'Name must contain at least one visible character'],
    ['Ayşe\u202Eevil', 'Name must not contain text-direction control characters'],
    ['Ay\u0000şe', 'Name must not contain control characters (line breaks, tabs, NUL)'],
    ['Ayşe\r\nYılmaz', 'Name must not contain control characters (line breaks, tabs, NUL)'],
  ])('refuses the name %j: %s', async (name, message) => {
    const res = await register(`n${Math.random().toString(36).slice(2)}@example.com`, name);
    expect(res.status).toBe(400);
    expect(fieldErrors(res)).toEqual({ name: [message] });
  });
});
