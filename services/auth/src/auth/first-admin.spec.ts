import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { createStore, STORE, Store, StoreSettings } from '@app/store';
import { testConfig } from '@app/testing';
import { describeWithPostgres, PostgresServerHandle, startPostgresServer } from '@app/testing/engines';
import { authService } from '../auth.service-definition';
import { MemberImportService } from '../import/member-import.service';
import { usersCollection } from '../users/user.collection';

/**
 * Issue 45 §1: the first account of an empty site is its one admin, however many sign up at once.
 * Counting accounts before inserting made several admins when sign-ups raced.
 */
const PASSWORD = 'lamp-desk-battery-42';
const SIGN_UPS = 20;

const signUps = (apps: INestApplication[]) =>
  Promise.all(
    Array.from({ length: SIGN_UPS }, (_, i) =>
      request(apps[i % apps.length].getHttpServer())
        .post('/api/auth/register')
        .send({ email: `racer${i}@example.com`, name: `Racer ${i}`, password: PASSWORD }),
    ),
  );

const rolesOf = (replies: request.Response[]) => {
  expect(replies.map((r) => r.status)).toEqual(Array(SIGN_UPS).fill(201));
  return replies.map((r) => r.body.data.user.role as string);
};

interface Replica {
  app: INestApplication;
  transport: MemoryTransport;
}

/** Replicas of the auth service, each with its own store handle on the same data, as on separate hosts. */
async function startReplicas(count: number, settings: StoreSettings): Promise<Replica[]> {
  const replicas: Replica[] = [];
  for (let i = 0; i < count; i++) {
    const transport = new MemoryTransport();
    const app = await buildService(authService, { config: testConfig(), store: createStore('auth', settings), transport });
    replicas.push({ app, transport });
  }
  return replicas;
}

async function stopReplicas(replicas: Replica[]): Promise<void> {
  for (const { app, transport } of replicas) {
    await app.close();
    await transport.close();
  }
}

const itMakesOneAdmin = (replicas: () => Replica[]) =>
  it(`makes exactly one admin of ${SIGN_UPS} concurrent sign-ups spread over the replicas, and none after`, async () => {
    const apps = replicas().map((r) => r.app);
    const roles = rolesOf(await signUps(apps));
    expect(roles.filter((r) => r === 'admin')).toHaveLength(1);
    const later = await request(apps[0].getHttpServer()).post('/api/auth/register').send({ email: 'late@example.com', name: 'Late', password: PASSWORD });
    expect(later.body.data.user.role).toBe('member');
  });

describe('the first admin on SQLite, a data file as in the embedded profile (issue 45 §1)', () => {
  let dataDir: string;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'first-admin-'));
    // One process per SQLite file (replicas sharing it are separate processes): reads then go to
    // its reader connection, which does not see a commit group's rows before the group commits.
    replicas = await startReplicas(1, { engine: 'sqlite', dataDir });
  });

  afterAll(async () => {
    await stopReplicas(replicas);
    rmSync(dataDir, { recursive: true, force: true });
  });

  itMakesOneAdmin(() => replicas);
});

describeWithPostgres('first-admin')('the first admin on PostgreSQL, two replicas (issue 45 §1)', () => {
  let server: PostgresServerHandle;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    replicas = await startReplicas(2, { engine: 'postgres', postgresUrl: await server.createDatabase('first_admin'), dataDir: ':memory:' });
  }, 120_000);

  afterAll(async () => {
    await stopReplicas(replicas);
    await server?.stop();
  });

  itMakesOneAdmin(() => replicas);
});

describeWithPostgres('first-admin-import')('the first admin on PostgreSQL when an import races sign-ups on another replica', () => {
  let server: PostgresServerHandle;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    server = await startPostgresServer();
    replicas = await startReplicas(2, { engine: 'postgres', postgresUrl: await server.createDatabase('first_admin_import'), dataDir: ':memory:' });
  }, 120_000);

  afterAll(async () => {
    await stopReplicas(replicas);
    await server?.stop();
  });

  it('makes exactly one admin whether the claim goes to a sign-up or to the batch (which then goes row by row)', async () => {
    const [importing, signing] = replicas.map((r) => r.app);
    const rows = Array.from({ length: SIGN_UPS }, (_, i) => ({ email: `imported${i}@example.com`, name: `Imported ${i}`, password: PASSWORD }));
    const [report, replies] = await Promise.all([importing.get(MemberImportService).import(rows), signUps([signing])]);
    expect(report.rejected).toEqual([]);
    expect(replies.map((r) => r.status)).toEqual(Array(SIGN_UPS).fill(201));
    const users = importing.get<Store>(STORE).collection(usersCollection);
    expect(await users.count({})).toBe(SIGN_UPS * 2);
    expect(await users.count({ role: 'admin' })).toBe(1);
    expect(await users.count({ first_admin: true })).toBe(1);
  });
});
