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
