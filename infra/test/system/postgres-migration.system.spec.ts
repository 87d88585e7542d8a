import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { serviceDataFile, SqliteExport } from '@app/store';
import { buildServer } from '@app/testing';
import { describeWithPostgres, PostgresServerHandle, startPostgresServer } from '@app/testing/engines';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { DEMO_PASSWORD } from '../../launcher/src/seed/auth.seed';

/**
 * Issue 29 §3: a community started with `npm start` moves to PostgreSQL with one command. The demo
 * data folder is seeded by the embedded stack, copied by `npm run migrate:postgres`'s script (built
 * as the command builds it), copied again (nothing to do), resumed after rows went missing, and
 * served by the stack on PostgreSQL.
 */

const ROOT = resolve(__dirname, '../../..');
const SERVICES = ['auth', 'social', 'reviews', 'squads', 'messaging', 'notifications'];

describeWithPostgres('postgres-migration')('npm run migrate:postgres on a seeded demo data folder', () => {
  let dataDir: string;
  let server: PostgresServerHandle;
  let postgresUrl: string;
  let stack: EmbeddedStack | undefined;
  /** A review of the demo, as the SQLite stack served it. */
  let review: { id: string; content: string };

  const migrate = () => {
    const run = spawnSync(process.execPath, ['dist/infra/launcher/src/migrate-postgres.js', '--data-dir', dataDir], {
      cwd: ROOT,
      env: { ...process.env, POSTGRES_URL: postgresUrl },
      encoding: 'utf8',
    });
    return { status: run.status, lines: run.stdout.split('\n').filter(Boolean), stderr: run.stderr };
  };

  /** Documents per `service.collection`, counted in the SQLite files and in PostgreSQL. */
  const counts = async (): Promise<{ sqlite: Record<string, number>; postgres: Record<string, number> }> => {
    const sqlite: Record<string, number> = {};
    const postgres: Record<string, number> = {};
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      for (const service of SERVICES) {
        const source = new SqliteExport(serviceDataFile(dataDir, service));
        for (const collection of source.collections()) {
          sqlite[`${service}.${collection}`] = source.count(collection);
          const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${service}"."${collection}"`);
          postgres[`${service}.${collection}`] = Number(rows[0].n);
        }
        source.close();
      }
    } finally {
      await client.end();
    }
    return { sqlite, postgres };
  };

  beforeAll(async () => {
    buildServer(ROOT);
    dataDir = mkdtempSync(join(tmpdir(), 'pg-migration-'));
    const seeded = await startEmbeddedStack({ port: 0, dataDir, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    try {
      const login = await request(seeded.url).post('/api/auth/login').send({ email: 'ayse@demo.local', password: DEMO_PASSWORD });
      const reviews = await request(seeded.url).get('/api/reviews?page=1&limit=5').set({ Authorization: `Bearer ${login.body.data.token}` });
      review = reviews.body.data[0];
    } finally {
      await seeded.close();
    }
    server = await startPostgresServer();
    postgresUrl = await server.createDatabase('squadreviews');
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies every collection of every service, prints the counts and checks them', async () => {
    const { status, lines, stderr } = migrate();
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const { sqlite, postgres } = await counts();
    expect(Object.keys(sqlite).length).toBeGreaterThan(20);
    expect(postgres).toEqual(sqlite);
    const total = Object.values(sqlite).reduce((a, b) => a + b, 0);
    expect(lines.at(-1)).toBe(`Checked: ${total} documents in ${Object.keys(sqlite).length} collections of ${SERVICES.length} services; every count matches.`);
    for (const [name, n] of Object.entries(sqlite)) expect(lines).toContain(`${name}: ${n} in SQLite, ${n} copied, 0 already there, ${n} in PostgreSQL`);
    process.stdout.write(`postgres-migration: ${lines.at(-1)}\n`);
  }, 120_000);

  it('is idempotent: a second run copies nothing and every count still matches', async () => {
    const { status, lines } = migrate();
    expect(status).toBe(0);
    const { sqlite, postgres } = await counts();
    expect(postgres).toEqual(sqlite);
    for (const [name, n] of Object.entries(sqlite)) expect(lines).toContain(`${name}: ${n} in SQLite, 0 copied, ${n} already there, ${n} in PostgreSQL`);
  }, 120_000);

  it('resumes: rows an interrupted run did not write are copied, the others left alone', async () => {
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    const removed = await client.query(`DELETE FROM reviews.reviews WHERE _id IN (SELECT _id FROM reviews.reviews ORDER BY _id DESC LIMIT 3)`);
    await client.query(`DELETE FROM auth.users WHERE _id IN (SELECT _id FROM auth.users ORDER BY _id DESC LIMIT 2)`);
    await client.end();
    expect(removed.rowCount).toBe(3);
    const { status, lines } = migrate();
    expect(status).toBe(0);
    const { sqlite, postgres } = await counts();
    expect(postgres).toEqual(sqlite);
    expect(lines).toContain(`reviews.reviews: ${sqlite['reviews.reviews']} in SQLite, 3 copied, ${sqlite['reviews.reviews'] - 3} already there, ${sqlite['reviews.reviews']} in PostgreSQL`);
    expect(lines).toContain(`auth.users: ${sqlite['auth.users']} in SQLite, 2 copied, ${sqlite['auth.users'] - 2} already there, ${sqlite['auth.users']} in PostgreSQL`);
  }, 120_000);

  it('the stack boots on PostgreSQL and serves the migrated data: the demo member logs in, reads and finds a review', async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir, seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', STORE: 'postgres', POSTGRES_URL: postgresUrl } });
    const login = await request(stack.url).post('/api/auth/login').send({ email: 'ayse@demo.local', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.data.token}` };
    const read = await request(stack.url).get(`/api/reviews/${review.id}`).set(auth);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: review.id, content: review.content });
    // The search vectors were built while copying: a word of the review finds it.
    const word = review.content.match(/[\p{L}]{5,}/u)![0];
    const found = await request(stack.url).get(`/api/search?q=${encodeURIComponent(word)}`).set(auth);
    expect(found.status).toBe(200);
    expect(found.body.data.reviews.map((r: { id: string }) => r.id)).toContain(review.id);
    // And writes land there.
    const like = await request(stack.url).post(`/api/likes/reviews/${review.id}`).set(auth);
    expect(like.status).toBe(200);
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    const likes = await client.query(`SELECT 1 FROM reviews.likes WHERE doc ->> 'review_id' = $1 AND doc ->> 'user_id' = $2`, [review.id, login.body.data.user.id]);
    await client.end();
    expect(likes.rowCount).toBe(1);
  }, 120_000);
});
