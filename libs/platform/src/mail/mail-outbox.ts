import { randomUUID } from 'node:crypto';
import { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { Collection } from '@app/store';
import { Mailer } from './mailer';

/** A message waiting to be sent: a service writes the row, the worker sends it and sets `sent_at`. */
export interface MailOutboxDoc {
  _id: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
  /** Failed sends so far. */
  attempts?: number;
  /** No worker touches the row before this: a claim while sending, the back-off after a failure. */
  retry_at?: string;
  /** The pass that claimed the row last (a token of that pass). */
  claim?: string;
}

export interface MailOutboxOptions {
  /** Drop the body once sent: it may hold a credential (a reset link). */
  forgetBody?: boolean;
  pollMs?: number;
  /** Rows a pass claims and sends; 200 by default. */
  batch?: number;
}

/** Each pass reads the due rows of the whole outbox: a backlog of 50,000 took 2,500 passes at 20. */
const BATCH = 200;
/** A claim outlives any send; a replica that died mid-send leaves the row to another after it. */
const CLAIM_MS = 60_000;
const MAX_BACKOFF_MS = 60 * 60_000;

/**
 * Sends an outbox collection's rows through a Mailer, at least once: rows are claimed (so replicas
 * sharing the store do not send the same row twice in a row), a failure is retried with an
 * exponential back-off capped at an hour, and nothing is ever dropped. A pass claims its batch in
 * one write and marks what it sent in another: a process that dies between the two sends that
 * batch again once the claim runs out.
 */
export class MailOutboxWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly outbox: Collection<MailOutboxDoc>,
    readonly mailer: Mailer,
    private readonly logger: Logger,
    private readonly options: MailOutboxOptions = {},
  ) {}

  onApplicationBootstrap(): void {
    // A store that is down for a while (a restarting server) fails this pass only; the next tick tries again.
    // Each tick sends what is due, batch after batch: a backlog (an import's follows, 50,000 at full
    // size) goes at the mailer's pace, not a batch a second, each pass reading the whole backlog.
    this.timer = setInterval(() => void this.sendDue().catch((err: Error) => this.logger.warn({ err: err.message }, 'mail outbox pass failed; will retry')), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.mailer.close();
  }

  /** Account deletion: the mail kept for these addresses (the .eml files) goes; the caller deletes its rows after. */
  async forgetSentTo(addresses: Iterable<string>): Promise<number> {
    let removed = 0;
    for (const address of new Set([...addresses].map((a) => a.toLowerCase()))) removed += await this.mailer.forget(address);
    return removed;
  }

  /** One pass over the due rows (how many were due); concurrent calls share the pass in flight. */
  drain(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  /** Passes until none is due (each tick's, and the bench's before it measures); concurrent calls share each pass. */
  async sendDue(): Promise<void> {
    while ((await this.drain()) > 0);
  }

  private async pass(): Promise<number> {
    const due = await this.outbox.find(
      { sent_at: null, $or: [{ retry_at: { $exists: false } }, { retry_at: { $lte: new Date().toISOString() } }] },
      { sort: { created_at: 1 }, limit: this.options.batch ?? BATCH, projection: { _id: 1, retry_at: 1 } },
    );
    if (due.length === 0) return 0;
    // Each row is claimed only as it was read: one another replica claimed in between has a newer
    // retry_at and stays theirs. The rows never tried (nearly all) in one write, by id.
    const claim = { retry_at: new Date(Date.now() + CLAIM_MS).toISOString(), claim: randomUUID() };
    const fresh = due.filter((row) => row.retry_at === undefined).map((row) => row._id);
    if (fresh.length > 0) await this.outbox.updateMany({ _id: { $in: fresh }, retry_at: { $exists: false } }, { $set: claim });
    for (const row of due.filter((r) => r.retry_at !== undefined)) await this.outbox.updateOne({ _id: row._id, retry_at: row.retry_at }, { $set: claim });
    const batch = due.map((row) => row._id);
    const claimed = await this.outbox.find({ _id: { $in: batch }, claim: claim.claim }, { sort: { created_at: 1 } });
    const sent: string[] = [];
    for (const row of claimed) if (await this.send(row)) sent.push(row._id);
    if (sent.length > 0) {
      await this.outbox.updateMany({ _id: { $in: sent } }, { $set: { sent_at: new Date().toISOString(), ...(this.options.forgetBody ? { body: '' } : {}) } });
    }
    return batch.length;
  }

  /** True once the mailer took it; a failure sets the row's back-off. */
  private async send(row: MailOutboxDoc): Promise<boolean> {
    try {
      const where = await this.mailer.send({ to: row.to, subject: row.subject, text: row.body, id: row._id });
      this.logger.debug({ mail: row._id, where }, 'mail sent');
      return true;
    } catch (err) {
      const attempts = (row.attempts ?? 0) + 1;
      const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempts);
      await this.outbox.updateOne({ _id: row._id }, { $set: { attempts, retry_at: new Date(Date.now() + backoff).toISOString() } });
      this.logger.warn({ mail: row._id, attempts, err: (err as Error).message }, 'mail not sent; will retry');
      return false;
    }
  }
}
