import * as bcrypt from 'bcryptjs';
import { createTestService, TestService } from '@app/testing';
import { authService } from '../auth.service-definition';
import { MemberImportService } from './member-import.service';

describe('members import (auth)', () => {
  let svc: TestService;
  let importer: MemberImportService;

  beforeAll(async () => {
    svc = await createTestService(authService);
    importer = svc.app.get(MemberImportService);
  });

  afterAll(() => svc.close());

  it("applies registration's rules row by row and refuses a row with the reply its request would get", async () => {
    const hash = await bcrypt.hash('shared-kettle-orbit-17', 4);
    const report = await importer.import([
      { email: 'First@Example.com', name: 'Ada Lovelace', password: 'lamp-desk-battery-42' },
      { email: 'second@example.com', name: 'Ada Lovelace', password_hash: hash },
      { email: 'first@example.com', name: 'Someone Else', password_hash: hash },
      { email: 'weak@example.com', name: 'Weak One', password: 'password1' },
      { email: 'both@example.com', name: 'Both Ways', password: 'lamp-desk-battery-42', password_hash: hash },
      { email: 'none@example.com', name: 'No Password' },
      { email: 'hash@example.com', name: 'Bad Hash', password_hash: 'not-a-hash' },
      { email: 'extra@example.com', name: 'Extra Field', password_hash: hash, role: 'admin' },
    ]);
    expect(report.imported.slice(0, 2)).toEqual([
      { id: expect.any(String), email: 'first@example.com', username: 'ada_lovelace' },
      { id: expect.any(String), email: 'second@example.com', username: 'ada_lovelace2' },
    ]);
    expect(report.imported.slice(2)).toEqual([null, null, null, null, null, null]);
    expect(report.rejected.map((r) => [r.index, r.status, r.message])).toEqual([
      [2, 409, 'An account with this email already exists'],
      [3, 400, expect.stringContaining('Password is too easy to guess')],
      [4, 400, 'Send either password or password_hash, not both'],
      [5, 400, 'password or password_hash is required'],
      [6, 400, 'password_hash must be a bcrypt hash'],
      [7, 400, 'property role should not exist'],
    ]);
    await svc.settle();
    // The first account of the site is the admin, as at registration; each announced once.
    expect(svc.emitted('user.registered')).toEqual([
      expect.objectContaining({ email: 'first@example.com', role: 'admin' }),
      expect.objectContaining({ email: 'second@example.com', role: 'member' }),
    ]);
  });

  it('stores the password or the given hash, so both members log in with theirs', async () => {
    const login = (email: string, password: string) => svc.http().post('/api/auth/login').send({ email, password });
    expect((await login('first@example.com', 'lamp-desk-battery-42')).status).toBe(200);
    expect((await login('second@example.com', 'shared-kettle-orbit-17')).status).toBe(200);
    expect((await login('second@example.com', 'lamp-desk-battery-42')).status).toBe(401);
  });
});

describe('members import over HTTP (auth, /api/internal/import)', () => {
  let svc: TestService;
  const saved = process.env.IMPORT_TOKEN;

  beforeAll(async () => {
    svc = await createTestService(authService);
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.IMPORT_TOKEN;
    else process.env.IMPORT_TOKEN = saved;
    await svc.close();
  });

  const send = (authorization: string | undefined, body: unknown) => {
    const req = svc.http().post('/api/internal/import/members');
    return (authorization ? req.set('authorization', authorization) : req).send(body as object);
  };
  const row = { email: 'over-http@example.com', name: 'Over Http', password: 'lamp-desk-battery-42' };

  it('does not exist without IMPORT_TOKEN, whatever the caller sends', async () => {
    delete process.env.IMPORT_TOKEN;
    const res = await send('Bearer anything', { rows: [row] });
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses a missing or wrong token before it reads the body, and imports with the right one', async () => {
    process.env.IMPORT_TOKEN = 'import-secret-for-the-spec';
    expect((await send(undefined, { rows: [row] })).status).toBe(401);
    expect((await send('Bearer import-secret-for-the-spe', 'not json rows')).status).toBe(401);
    const bad = await send('Bearer import-secret-for-the-spec', { rows: 'nope' });
    expect([bad.status, bad.body.errors?.[0]?.field]).toEqual([400, 'rows']);
    const res = await send('Bearer import-secret-for-the-spec', { rows: [row, { ...row, name: 'Same Mail' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.imported).toEqual([{ id: expect.any(String), email: 'over-http@example.com', username: 'over_http' }, null]);
    expect(res.body.data.rejected).toEqual([expect.objectContaining({ index: 1, status: 409 })]);
    expect((await svc.http().post('/api/auth/login').send({ email: row.email, password: row.password })).status).toBe(200);
  });
});
