import * as bcrypt from 'bcryptjs';
import { DuplicateKeyError } from '@app/store';
import { createTestService, probeStore, TestService } from '@app/testing';
import { AuthService } from '../auth/auth.service';
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

describe('members import, a batch at once (auth)', () => {
  let svc: TestService;
  let importer: MemberImportService;
  let hash: string;

  beforeAll(async () => {
    svc = await createTestService(authService);
    importer = svc.app.get(MemberImportService);
    hash = await bcrypt.hash('shared-kettle-orbit-17', 4);
  });

  afterAll(() => svc.close());

  const members = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ email: `m${from + i}@example.com`, name: `Member ${(from + i) % 7}`, password_hash: hash }));

  it('reads the batch once and writes its accounts and their events in one insert each', async () => {
    const probe = probeStore(svc.store);
    try {
      const report = await importer.import(members(0, 40));
      expect(report.rejected).toEqual([]);
      // A handful for the batch, not a few per row (row by row: ~120 reads, 40 writes). Under test
      // every event's proof is read back after its change (EventBus): 40 of the reads.
      expect(probe.reads - 40).toBeLessThanOrEqual(4);
      expect(probe.writes).toBeLessThanOrEqual(5);
    } finally {
      probe.stop();
    }
    await svc.settle();
    const registered = svc.emitted('user.registered');
    expect(registered.map((e) => e.email)).toEqual(members(0, 40).map((m) => m.email));
    expect(registered.map((e) => e.role)).toEqual(['admin', ...Array(39).fill('member')]);
    // Names repeat every seven rows: each takes the next free candidate, as one sign-up after another would.
    expect(registered.slice(0, 15).map((e) => e.username)).toEqual([
      ...['member_0', 'member_1', 'member_2', 'member_3', 'member_4', 'member_5', 'member_6'],
      ...['member_02', 'member_12', 'member_22', 'member_32', 'member_42', 'member_52', 'member_62', 'member_03'],
    ]);
  });

  it('goes row by row when another writer got there first, leaving nothing of the batch it rolled back', async () => {
    const auth = svc.app.get(AuthService);
    const before = svc.emitted('user.registered').length;
    const batch = jest.spyOn(auth, 'createAccounts').mockImplementationOnce(async (accounts) => {
      await AuthService.prototype.createAccounts.call(auth, accounts);
      throw new DuplicateKeyError('users', 'a concurrent sign-up');
    });
    const report = await importer.import([...members(40, 3), { email: 'm0@example.com', name: 'Again', password_hash: hash }]);
    expect(batch).toHaveBeenCalledTimes(1);
    expect(report.imported.map((m) => m?.email ?? null)).toEqual(['m40@example.com', 'm41@example.com', 'm42@example.com', null]);
    expect(report.rejected.map((r) => [r.index, r.status])).toEqual([[3, 409]]);
    await svc.settle();
    expect(svc.emitted('user.registered').slice(before).map((e) => [e.email, e.userId])).toEqual(
      report.imported.slice(0, 3).map((m) => [m!.email, m!.id]),
    );
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
