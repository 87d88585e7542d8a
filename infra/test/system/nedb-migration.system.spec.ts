import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

/** A data folder written by the last NeDB release (see libs/store/test/fixtures). */
const FIXTURE = resolve(__dirname, '../../../libs/store/test/fixtures/nedb-release');

describe('npm start on a data folder of the NeDB release', () => {
  let dataDir: string;
  let stack: EmbeddedStack | undefined;
  let output: string[];
  let write: typeof process.stdout.write;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nedb-migration-'));
    cpSync(FIXTURE, dataDir, { recursive: true });
    output = [];
    write = process.stdout.write;
    process.stdout.write = ((chunk: string) => output.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      stack = await startEmbeddedStack({ port: 0, dataDir, seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    } finally {
      process.stdout.write = write;
    }
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports every service once, keeps the old files aside, and says so in one line', () => {
    const lines = output.join('').split('\n').filter((l) => l.includes('NeDB'));
    expect(lines).toEqual([expect.stringMatching(/Imported NeDB data into SQLite: \d+ documents in \d+ collections of 6 services/)]);
    for (const service of ['auth', 'social', 'reviews', 'squads', 'messaging', 'notifications']) {
      const files = readdirSync(join(dataDir, service));
      expect([service, files.filter((f) => f.endsWith('.db'))]).toEqual([service, []]);
      expect(files).toContain(`${service}.sqlite`);
      expect(existsSync(join(dataDir, service, 'nedb-imported', 'bus_inbox.db'))).toBe(true);
    }
  });

  it('serves the old data: the member logs in with the old password and reads the review, the chat and the notifications', async () => {
    const http = () => request(stack!.url);
    const login = await http().post('/api/auth/login').send({ email: 'ayse@fixture.local', password: 'Fixture-pass-1234' });
    expect(login.status).toBe(200);
    const auth = { Authorization: `Bearer ${login.body.data.token}` };
    const reviews = await http().get(`/api/reviews?page=1&limit=10`).set(auth);
    expect(reviews.status).toBe(200);
    expect(reviews.body.data.map((r: { content: string }) => r.content)).toContain('Çok iyi, 5.0 puan değil ama.');
    const chats = await http().get('/api/messages/conversations').set(auth);
    expect(chats.body.data).toHaveLength(1);
    const messages = await http().get(`/api/messages/conversations/${chats.body.data[0].id}/messages`).set(auth);
    expect(messages.body.data.map((m: { content: string }) => m.content)).toEqual(expect.arrayContaining(['Merhaba 👋', 'Selam! a.b.c']));
    const notes = await http().get('/api/notifications').set(auth);
    expect(notes.body.data.map((n: { type: string }) => n.type)).toContain('review_liked');
  });
});
