import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startSmtpInbox } from '@app/testing/engines';
import { testConfig } from '@app/testing';
import { Collection, defineCollection, SqliteStore } from '@app/store';
import { createMailer, MemoryMailer } from './mailer';
import { MailOutboxDoc, MailOutboxWorker } from './mail-outbox';

const outboxDef = defineCollection<MailOutboxDoc>('mail_outbox', [{ fields: { sent_at: 1 }, orderBy: { created_at: 1 } }]);
const logger = pino({ level: 'silent' });


const row = (id: string, to: string): MailOutboxDoc => ({
  _id: id,
  to,
  subject: 'Şifreni sıfırla',
  body: `Merhaba,\nhttp://localhost:3000/reset-password?token=${id}`,
  created_at: new Date().toISOString(),
  sent_at: null,
});

describe('mail outbox', () => {
  let store: SqliteStore;

  beforeEach(async () => {
    store = new SqliteStore();
    await store.open([outboxDef]);
  });
  afterEach(() => store.close());

  it('sends a backlog of several batches in one sendDue, each row once, and a failing row is left to its back-off', async () => {
    const outbox = store.collection(outboxDef);
    const sent: string[] = [];
    const mailer = new MemoryMailer();
    mailer.send = async (message) => {
      if (message.to === 'broken@example.com') throw new Error('mailbox unavailable');
      sent.push(message.to);
      return 'memory';
    };
    const worker = new MailOutboxWorker(outbox, mailer, logger, { batch: 20 });
    await outbox.insertMany([...Array.from({ length: 45 }, (_, i) => row(`b${i}`, `m${i}@example.com`)), row('broken', 'broken@example.com')]);
    await worker.sendDue();
    expect(sent).toHaveLength(45);
    expect(new Set(sent).size).toBe(45);
    expect(await outbox.count({ sent_at: null })).toBe(1);
    expect((await outbox.findById('broken'))?.attempts).toBe(1);
  });

  it('sends a backlog of several batches on one tick of its timer, not a batch a tick', async () => {
    const outbox = store.collection(outboxDef);
    const mailer = new MemoryMailer();
    const worker = new MailOutboxWorker(outbox, mailer, logger, { pollMs: 300, batch: 20 });
    await outbox.insertMany(Array.from({ length: 70 }, (_, i) => row(`t${i}`, `t${i}@example.com`)));
    const started = Date.now();
    worker.onApplicationBootstrap();
    try {
      while ((await outbox.count({ sent_at: null })) > 0 && Date.now() - started < 5000) await new Promise((resolve) => setTimeout(resolve, 10));
      // Four batches: a tick each would take 1.2 s; the first tick sends them all.
      expect(await outbox.count({ sent_at: null })).toBe(0);
      expect(Date.now() - started).toBeLessThan(600);
    } finally {
      await worker.onApplicationShutdown();
    }
  });

  it('sends each row once when two replicas drain the same outbox at once', async () => {
    const outbox = store.collection(outboxDef);
    const sent: string[] = [];
    const replica = () => {
      const mailer = new MemoryMailer();
      mailer.send = async (message) => {
        await new Promise((resolve) => setImmediate(resolve));
        sent.push(message.to);
        return 'memory';
      };
      return new MailOutboxWorker(outbox, mailer, logger);
    };
    await outbox.insertMany(Array.from({ length: 50 }, (_, i) => row(`r${i}`, `m${i}@example.com`)));
    await Promise.all([replica().sendDue(), replica().sendDue()]);
    expect(sent).toHaveLength(50);
    expect(new Set(sent).size).toBe(50);
    expect(await outbox.count({ sent_at: null })).toBe(0);
  });

  it('sends each row once over SMTP, in UTF-8, and forgets the body when asked', async () => {
    const smtp = await startSmtpInbox();
    const outbox = store.collection(outboxDef);
    const worker = new MailOutboxWorker(outbox, createMailer(testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'Squad <no-reply@squad.test>' }), logger), logger, { forgetBody: true });
    try {
      await outbox.insert(row('m1', 'ayse@example.com'));
      await outbox.insert(row('m2', 'can@example.com'));
      await worker.drain();
      await worker.drain();
      expect(smtp.received.map((m) => m.to)).toEqual([['ayse@example.com'], ['can@example.com']]);
      const raw = smtp.received[0].raw;
      expect(raw).toMatch(/^From: Squad <no-reply@squad\.test>/m);
      expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(raw).toContain('reset-password?token=m1');
      const stored = await outbox.findById('m1');
      expect(stored?.sent_at).toEqual(expect.any(String));
      expect(stored?.body).toBe('');
    } finally {
      await worker.onApplicationShutdown();
      await smtp.close();
    }
  });

  it("gives a message its row's id as Message-ID: a row sent again (a crash between the send and its mark) is the same message twice", async () => {
    const smtp = await startSmtpInbox();
    const outbox = store.collection(outboxDef);
    const worker = new MailOutboxWorker(outbox, createMailer(testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'Squad <no-reply@squad.test>' }), logger), logger);
    try {
      await outbox.insert(row('m1', 'ayse@example.com'));
      await worker.drain();
      await outbox.updateOne({ _id: 'm1' }, { $set: { sent_at: null }, $unset: { retry_at: '', claim: '' } });
      await worker.drain();
      const ids = smtp.received.map((m) => /^Message-ID: (.*)$/im.exec(m.raw)?.[1]);
      expect(ids).toEqual(['<m1@squad.test>', '<m1@squad.test>']);
    } finally {
      await worker.onApplicationShutdown();
      await smtp.close();
    }
  });

  it('keeps a refused message and sends it on a later pass, after its back-off', async () => {
    const smtp = await startSmtpInbox();
    const outbox = store.collection(outboxDef);
    const worker = new MailOutboxWorker(outbox, createMailer(testConfig({ SMTP_URL: smtp.url }), logger), logger);
    try {
      smtp.refuse.count = 1;
      await outbox.insert(row('m1', 'ayse@example.com'));
      await worker.drain();
      expect(smtp.received).toHaveLength(0);
      const failed = await outbox.findById('m1');
      expect(failed).toMatchObject({ sent_at: null, attempts: 1 });
      await worker.drain();
      expect(smtp.received).toHaveLength(0); // still backing off
      await outbox.updateOne({ _id: 'm1' }, { $set: { retry_at: new Date(Date.now() - 1).toISOString() } });
      await worker.drain();
      expect(smtp.received.map((m) => m.to)).toEqual([['ayse@example.com']]);
      expect((await outbox.findById('m1'))?.body).toContain('token=m1');
    } finally {
      await worker.onApplicationShutdown();
      await smtp.close();
    }
  });

  /** A worker over the file mailer in a folder of its own, run by `test` and shut down after. */
  async function withFileMailer(test: (mail: { dir: string; outbox: Collection<MailOutboxDoc>; worker: MailOutboxWorker }) => Promise<void>): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'mail-'));
    const outbox = store.collection(outboxDef);
    const worker = new MailOutboxWorker(outbox, createMailer(testConfig({ DATA_DIR: dir }), logger), logger);
    try {
      await test({ dir, outbox, worker });
    } finally {
      await worker.onApplicationShutdown();
      await rm(dir, { recursive: true, force: true });
    }
  }

  it('without SMTP_URL writes an .eml file under DATA_DIR/mail', async () => {
    await withFileMailer(async ({ dir, outbox, worker }) => {
      await outbox.insert(row('m1', 'ayse@example.com'));
      await worker.drain();
      const files = await readdir(join(dir, 'mail'));
      expect(files).toHaveLength(1);
      const eml = await readFile(join(dir, 'mail', files[0]), 'utf8');
      expect(eml).toMatch(/^To: ayse@example\.com$/m);
      expect(eml).toMatch(/^Content-Type: text\/plain; charset=utf-8$/m);
      expect(eml).toMatch(/^Message-ID: <m1@[\w.-]+>$/m);
    });
  });

  it('makes the mail folder again when it was removed meanwhile', async () => {
    await withFileMailer(async ({ dir, outbox, worker }) => {
      await outbox.insert(row('m1', 'ayse@example.com'));
      await worker.drain();
      await rm(join(dir, 'mail'), { recursive: true });
      await outbox.insert(row('m2', 'can@example.com'));
      await worker.drain();
      const files = await readdir(join(dir, 'mail'));
      expect(files).toHaveLength(1);
      expect(await readFile(join(dir, 'mail', files[0]), 'utf8')).toMatch(/^To: can@example\.com$/m);
      expect((await outbox.findById('m2'))?.sent_at).toEqual(expect.any(String));
    });
  });

  it("forgets the .eml files sent to an address, whatever its case, and no one else's (account deletion)", async () => {
    await withFileMailer(async ({ dir, outbox, worker }) => {
      expect(await worker.forgetSentTo(['ayse@example.com'])).toBe(0); // no folder yet
      await outbox.insert(row('m1', 'ayse@example.com'));
      await outbox.insert(row('m2', 'can@example.com'));
      await outbox.insert(row('m3', 'Ayse@Example.com'));
      await worker.drain();
      expect(await readdir(join(dir, 'mail'))).toHaveLength(3);
      expect(await worker.forgetSentTo(['AYSE@example.com', 'ayse@example.com'])).toBe(2);
      const left = await readdir(join(dir, 'mail'));
      expect(left).toHaveLength(1);
      expect(await readFile(join(dir, 'mail', left[0]), 'utf8')).toMatch(/^To: can@example\.com$/m);
      expect(await worker.forgetSentTo(['ayse@example.com'])).toBe(0);
    });
  });

  it('keeps messages in memory when DATA_DIR is :memory:', () => {
    expect(createMailer(testConfig(), logger)).toBeInstanceOf(MemoryMailer);
  });
});
