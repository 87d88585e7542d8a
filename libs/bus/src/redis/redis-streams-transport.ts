import { AnyEventEnvelope, isEventEnvelope } from '@app/contracts';
import { Logger } from '@nestjs/common';
import { connectRedis } from '@app/store';
import Redis from 'ioredis';
import { BusTransport, SubscribeOptions, Subscription } from '../bus.port';

export interface RedisStreamsOptions {
  url: string;
  /** Stream name = prefix + event type. Tests give each case its own prefix. */
  prefix?: string;
  /** Approximate cap per stream (XADD MAXLEN ~): old entries are trimmed, not kept forever. */
  maxLen?: number;
  /** A pending entry idle this long is taken over (XAUTOCLAIM): its consumer died or its handler failed. */
  claimIdleMs?: number;
  /** XREADGROUP BLOCK: short, so close() never waits long for the loop to notice. */
  blockMs?: number;
  /** Entries read per XREADGROUP / XAUTOCLAIM, and most events handed to `handleBatch` at once. */
  batchSize?: number;
  /**
   * A consumer with `handleBatch` that has just handled a read waits this long before the next one,
   * so that events arriving meanwhile are handled together (one transaction, one inbox statement)
   * instead of one by one as they trickle in. An event that arrives to an idle consumer is read at once.
   */
  lingerMs?: number;
  /** How long close() waits for a running handler before dropping the connection anyway. */
  closeTimeoutMs?: number;
}

type Settings = Required<Omit<RedisStreamsOptions, 'url'>>;

const DEFAULTS: Settings = {
  prefix: 'bus:',
  maxLen: 100_000,
  claimIdleMs: 30_000,
  blockMs: 200,
  batchSize: 64,
  lingerMs: 20,
  closeTimeoutMs: 5_000,
};

/** Groups named like this belong to one process (e.g. a gateway instance) and only want what comes next. */
const BROADCAST_PREFIX = 'broadcast:';
const RETRY_PAUSE_MS = 1_000;
const MAX_POSITIONS = 1_000;
const UNTIL_HANDLED_POLL_MS = 10;
/** A read that has not come back this long past its BLOCK is stalled (a link gone silent): the consumer is not in step. */
const STALL_MS = 1_000;

/** One stream entry; `fields` is null when the entry was trimmed while pending (XAUTOCLAIM on Redis 6.2). */
interface Entry {
  stream: string;
  id: string;
  fields: string[] | null;
}

/**
 * The distributed-local bus (ARCHITECTURE §2): one stream per event type, one consumer
 * group per service. Resolving a handler XACKs the entry; a failure leaves it pending
 * until some consumer of the group (this one included) claims it after `claimIdleMs`.
 */
export class RedisStreamsTransport implements BusTransport {
  readonly engine = 'redis' as const;
  private readonly logger = new Logger('RedisStreamsTransport');
  private readonly settings: Settings;
  private client?: Redis;
  private connecting?: Promise<Redis>;
  private readonly consumers = new Set<StreamConsumer>();
  /** Stream entry ids of the events this transport published lately, for `untilHandled`. */
  private readonly positions = new Map<string, string>();

  constructor(readonly options: RedisStreamsOptions) {
    this.settings = {
      prefix: options.prefix ?? DEFAULTS.prefix,
      maxLen: options.maxLen ?? DEFAULTS.maxLen,
      claimIdleMs: options.claimIdleMs ?? DEFAULTS.claimIdleMs,
      blockMs: options.blockMs ?? DEFAULTS.blockMs,
      batchSize: options.batchSize ?? DEFAULTS.batchSize,
      lingerMs: options.lingerMs ?? DEFAULTS.lingerMs,
      closeTimeoutMs: options.closeTimeoutMs ?? DEFAULTS.closeTimeoutMs,
    };
  }

  async connect(): Promise<void> {
    await this.ready();
  }

  async publish(event: AnyEventEnvelope): Promise<void> {
    const client = await this.ready();
    this.remember(event, await client.xadd(...this.entry(event)));
  }

  /** One pipeline: the XADDs go in order on one connection, and their answers come back together. */
  async publishAll(events: AnyEventEnvelope[]): Promise<void> {
    const client = await this.ready();
    const pipeline = client.pipeline();
    for (const event of events) pipeline.xadd(...this.entry(event));
    const answers = (await pipeline.exec()) ?? [];
    events.forEach((event, i) => {
      const [err, entryId] = answers[i] ?? [new Error('no answer')];
      if (err) throw err;
      this.remember(event, entryId as string | null);
    });
  }

  private entry(event: AnyEventEnvelope): [string, 'MAXLEN', '~', number, '*', 'key', string, 'data', string] {
    return [this.settings.prefix + event.type, 'MAXLEN', '~', this.settings.maxLen, '*', 'key', event.key, 'data', JSON.stringify(event)];
  }

  private remember(event: AnyEventEnvelope, entryId: string | null): void {
    if (!entryId) return;
    this.positions.set(event.id, entryId);
    // Only an emitter that waits reads its position back, at once: the oldest go past a bound.
    if (this.positions.size > MAX_POSITIONS) this.positions.delete(this.positions.keys().next().value as string);
  }

  /**
   * Polls the stream's groups until each live one has delivered the entry and no consumer holds it
   * pending. A group with no consumer alive within the claim window (`presenceKey`) belongs to a
   * process that is gone (a broadcast group left behind): it is not waited for.
   */
  async untilHandled(event: AnyEventEnvelope, timeoutMs: number): Promise<boolean> {
    const entryId = this.positions.get(event.id);
    if (!entryId) return true;
    this.positions.delete(event.id);
    const client = await this.ready();
    const stream = this.settings.prefix + event.type;
    const deadline = Date.now() + timeoutMs;
    const groups = await liveGroups(client, this.settings.prefix, stream);
    let waiting = groups;
    while (waiting.length > 0) {
      if (Date.now() >= deadline) return false;
      const infos = new Map((flatRecords(await client.xinfo('GROUPS', stream))).map((g) => [String(g.name), g]));
      const still: string[] = [];
      for (const name of waiting) {
        const info = infos.get(name);
        if (!info) continue; // destroyed meanwhile
        if (compareIds(String(info['last-delivered-id']), entryId) < 0) still.push(name);
        else if (((await client.xpending(stream, name, entryId, entryId, 1)) as unknown[]).length > 0) still.push(name);
      }
      // A group whose sign of life lapsed while waited for (its process died meanwhile) is gone too.
      waiting = still.length > 0 ? await liveAmong(client, this.settings.prefix, still) : still;
      if (waiting.length > 0) await new Promise((r) => setTimeout(r, UNTIL_HANDLED_POLL_MS));
    }
    return true;
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const client = await this.ready();
    // A dedicated connection: XREADGROUP BLOCK would hold up every other command on a shared one.
    // No per-request retry limit: during an outage the loop simply waits for the reconnect.
    // Not auto-pipelined (the publisher is): its commands already go one after another.
    const conn = client.duplicate({ lazyConnect: false, maxRetriesPerRequest: null, enableAutoPipelining: false });
    watchConnection(conn, `${options.group}/${options.consumer}`, this.logger);
    const consumer = new StreamConsumer(
      conn,
      options.types.map((t) => this.settings.prefix + t),
      options,
      this.settings,
      this.logger,
      () => this.consumers.delete(consumer),
    );
    conn.on('close', () => consumer.connectionLost());
    try {
      await consumer.ensureGroups();
    } catch (err) {
      conn.disconnect();
      throw err;
    }
    this.consumers.add(consumer);
    consumer.start();
    return consumer;
  }

  /**
   * Waits until every group of every stream under this transport's prefix has delivered and
   * acknowledged each entry, twice in a row (a handler may publish more while it runs): tests and
   * the repair check settle the distributed bus with it.
   */
  async drain(pollMs = 20): Promise<void> {
    const client = await this.ready();
    for (let clean = 0; clean < 2; ) {
      clean = (await this.settledNow(client)) ? clean + 1 : 0;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  private async settledNow(client: Redis): Promise<boolean> {
    const streams: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = (await client.call('SCAN', cursor, 'MATCH', `${this.settings.prefix}*`, 'TYPE', 'stream', 'COUNT', '500')) as [string, string[]];
      streams.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    for (const stream of streams) {
      const info = flatRecords([await client.xinfo('STREAM', stream)])[0] ?? {};
      const last = String(info['last-generated-id'] ?? '0-0');
      for (const group of flatRecords(await client.xinfo('GROUPS', stream))) {
        if (Number(group.pending) > 0 || compareIds(String(group['last-delivered-id']), last) < 0) return false;
      }
    }
    return true;
  }

  async isHealthy(): Promise<boolean> {
    const client = this.client;
    if (!client || client.status !== 'ready') return false;
    try {
      return (await withTimeout(client.ping(), 1_000)) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.close()));
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    if (client) await quit(client);
  }

  private ready(): Promise<Redis> {
    this.connecting ??= this.open().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  private async open(): Promise<Redis> {
    // Few retries per command: a publish during an outage fails fast and the outbox relay retries it.
    // Auto-pipelined: the XADDs of requests committing in the same tick go out in one write.
    const client = new Redis(this.options.url, { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true });
    // Bounded: an unreachable REDIS_URL fails boot within seconds (the client is dropped);
    // once connected, an outage is reconnected through and logged by watchConnection.
    await connectRedis(client, this.options.url);
    watchConnection(client, 'publisher', this.logger);
    this.client = client;
    return client;
  }
}

/** One subscription: a read loop on its own connection. */
class StreamConsumer implements Subscription {
  private stopped = false;
  private done: Promise<void> = Promise.resolve();
  private closing?: Promise<void>;
  private wake?: () => void;
  private readonly startId: '0' | '$';
  /** Bumped when the connection drops: a read sent before cannot say the consumer caught up after. */
  private connection = 0;
  /** A read on the current connection came back short of a batch: nothing older is waiting. */
  private caughtUp = false;
  /** When the read now waiting for Redis was sent. */
  private readingSince?: number;
  /** The XACKs of the entries handled last, answered before the next read (same connection, in order). */
  private acking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly conn: Redis,
    private readonly streams: string[],
    private readonly options: SubscribeOptions,
    private readonly settings: Settings,
    private readonly logger: Logger,
    private readonly onClosed: () => void,
  ) {
    // A service's group starts at the beginning of the stream (0), so a service that starts
    // after an event was published still gets it. A `broadcast:` group is one process's
    // private fan-out: history is of no use to it, so it starts at the end ($).
    this.startId = options.group.startsWith(BROADCAST_PREFIX) ? '$' : '0';
  }

  /** XGROUP CREATE ... MKSTREAM for every stream; BUSYGROUP means it exists, which is fine. */
  async ensureGroups(): Promise<void> {
    for (const stream of this.streams) {
      try {
        await this.conn.xgroup('CREATE', stream, this.options.group, this.startId, 'MKSTREAM');
      } catch (err) {
        if (!message(err).includes('BUSYGROUP')) throw err;
      }
    }
  }

  start(): void {
    this.done = this.run();
  }

  inStep(): boolean {
    if (!this.caughtUp || this.conn.status !== 'ready') return false;
    return this.readingSince === undefined || Date.now() - this.readingSince <= this.settings.blockMs + STALL_MS;
  }

  connectionLost(): void {
    this.connection++;
    this.caughtUp = false;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    // During an outage the pending XREADGROUP would wait for the reconnect: drop it now.
    if (this.conn.status !== 'ready') this.conn.disconnect();
    // A handler that never settles must not hold shutdown forever: its entry stays pending
    // and another consumer claims it, exactly as if this process had died.
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.closeTimeoutMs)));
    await Promise.race([this.done.then(() => this.acking.catch(() => undefined)), timedOut]);
    clearTimeout(timer);
    // Nobody else reads a broadcast group: drop it rather than leave it to grow. Not during an
    // outage: this connection retries without limit, so the command would wait for Redis and
    // hold shutdown forever (a group left behind is only a little garbage).
    if (this.startId === '$' && this.conn.status === 'ready') {
      for (const stream of this.streams) {
        await withTimeout(this.conn.xgroup('DESTROY', stream, this.options.group), 1_000).catch(() => undefined);
      }
    }
    await quit(this.conn);
    this.onClosed();
  }

  /** Never rejects: every failure is logged and retried until close(). */
  private async run(): Promise<void> {
    const { group, consumer } = this.options;
    const { batchSize, blockMs, claimIdleMs } = this.settings;
    const claimEveryMs = Math.max(blockMs, Math.floor(claimIdleMs / 2));
    let nextClaimAt = 0;
    let failing = false;
    while (!this.stopped) {
      try {
        if (Date.now() >= nextClaimAt) {
          await this.conn.set(presenceKey(this.settings.prefix, group), consumer, 'PX', claimIdleMs);
          await this.claimIdle();
          nextClaimAt = Date.now() + claimEveryMs;
        }
        const connection = this.connection;
        this.readingSince = Date.now();
        const reply = await this.conn.xreadgroup(
          'GROUP',
          group,
          consumer,
          'COUNT',
          batchSize,
          'BLOCK',
          blockMs,
          'STREAMS',
          ...this.streams,
          ...this.streams.map(() => '>'),
        );
        this.readingSince = undefined;
        // Their answers came before the read's: a failed XACK (the connection lost) is a failed round.
        await this.acking;
        const entries = parseRead(reply);
        await this.process(entries);
        if (entries.length < batchSize && connection === this.connection) this.caughtUp = true;
        if (failing) this.logger.log(`${group}/${consumer} reading again`);
        failing = false;
        // Under a steady trickle (likes at a few hundred a second) the next read then holds several.
        if (this.options.handleBatch && this.settings.lingerMs > 0 && entries.length > 0 && entries.length < batchSize && !this.stopped) await this.pause(this.settings.lingerMs);
      } catch (err) {
        this.readingSince = undefined;
        this.caughtUp = false;
        if (this.stopped) break;
        if (!failing) this.logger.warn(`${group}/${consumer} read failed, retrying: ${message(err)}`);
        failing = true;
        // Redis restarted without persistence: the groups are gone, make them again. What was
        // published before they are back is lost to a group that starts at the end ($).
        if (message(err).includes('NOGROUP')) {
          await this.ensureGroups().catch(() => undefined);
          this.options.onGap?.();
        }
        await this.pause(RETRY_PAUSE_MS);
      }
    }
  }

  /** Takes over entries idle longer than claimIdleMs: from dead consumers, or our own failed ones. */
  private async claimIdle(): Promise<void> {
    const { group, consumer } = this.options;
    for (const stream of this.streams) {
      let cursor = '0-0';
      // Bounded pages per round so new entries are not starved by a large backlog.
      for (let page = 0; page < 10 && !this.stopped; page++) {
        const reply = await this.conn.xautoclaim(
          stream,
          group,
          consumer,
          this.settings.claimIdleMs,
          cursor,
          'COUNT',
          this.settings.batchSize,
        );
        const { next, entries } = parseClaim(stream, reply);
        if (entries.length > 0) {
          this.logger.log(`${group}/${consumer} took over ${entries.length} pending entries of ${stream}`);
        }
        await this.process(entries);
        await this.acking;
        if (next === '0-0') break;
        cursor = next;
      }
    }
  }

  /**
   * Sequential on purpose: one consumer keeps the publish order (per key and overall). A subscriber
   * with `handleBatch` gets the read's events together (one transaction of its store instead of one
   * per event); if it throws, nothing of that batch was committed and each event goes to `handler`
   * on its own, so one poison event holds up only itself. What the read's handling got done is
   * acknowledged at its end, one XACK per stream, without waiting for Redis's answer before the
   * next read is sent (the XACKs go out first on this connection, so they are answered before that
   * read): an entry published meanwhile waits one round trip, not two. An entry handled but not
   * acknowledged (the process died, the connection was lost) stays pending: it is claimed and
   * delivered again, and the inbox drops the repeat.
   */
  private async process(entries: Entry[]): Promise<void> {
    // Several streams come back one after another; entry ids are server timestamps, so
    // sorting puts the batch back in publish order.
    entries.sort((a, b) => compareIds(a.id, b.id));
    const done: Entry[] = [];
    const decoded: { entry: Entry; event: AnyEventEnvelope }[] = [];
    for (const entry of entries) {
      const event = decode(entry.fields);
      if (event) decoded.push({ entry, event });
      else {
        if (entry.fields) this.logger.error(`Dropped a malformed entry ${entry.id} on ${entry.stream}`);
        done.push(entry);
      }
    }
    try {
      // A read spans several streams, so it may hold more than batchSize: batches stay within it.
      const size = this.options.handleBatch ? this.settings.batchSize : 1;
      for (let at = 0; at < decoded.length; at += size) {
        if (this.stopped) return; // left pending: another consumer will claim it
        const batch = decoded.slice(at, at + size);
        if (batch.length > 1 && (await this.handleBatch(batch.map((b) => b.event)))) {
          done.push(...batch.map((b) => b.entry));
          continue;
        }
        for (const { entry, event } of batch) {
          if (this.stopped) return;
          if (await this.handleOne(event)) done.push(entry);
        }
      }
    } finally {
      this.acknowledge(done);
    }
  }

  /**
   * One XACK per stream for what a read's handling got done, not one per entry (a process's
   * broadcast group took every event one by one: 500 members registered, 500 XACKs per process).
   * Not awaited: the loop awaits it after its next round trip, and kept from rejecting unheard.
   */
  private acknowledge(done: Entry[]): void {
    const byStream = new Map<string, string[]>();
    for (const entry of done) byStream.set(entry.stream, [...(byStream.get(entry.stream) ?? []), entry.id]);
    const acked = Promise.all([...byStream].map(([stream, ids]) => this.conn.xack(stream, this.options.group, ...ids)));
    acked.catch(() => undefined);
    this.acking = acked;
  }

  /** True once the whole batch was handled; false leaves its events to `handler`, one by one. */
  private async handleBatch(events: AnyEventEnvelope[]): Promise<boolean> {
    try {
      await this.options.handleBatch?.(events);
      return true;
    } catch (err) {
      this.logger.warn(`${this.options.group} failed a batch of ${events.length}, handling them one by one: ${message(err)}`);
      return false;
    }
  }

  private async handleOne(event: AnyEventEnvelope): Promise<boolean> {
    try {
      await this.options.handler(event);
      return true;
    } catch (err) {
      // Not acknowledged: it stays pending and is claimed again after claimIdleMs.
      // Events behind it keep flowing, so per-key order does not hold across a failure.
      this.logger.warn(`${this.options.group} failed ${event.type} ${event.id}, will retry: ${message(err)}`);
      return false;
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

// --- reply parsing: ioredis types stream replies as unknown, so narrow them here ---

/** XREADGROUP: null, or [[stream, [[id, [field, value, ...]], ...]], ...]. */
function parseRead(reply: unknown): Entry[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((item: unknown) =>
    Array.isArray(item) && typeof item[0] === 'string' ? parseEntries(item[0], item[1]) : [],
  );
}

/** XAUTOCLAIM: [next cursor, entries, deleted ids (Redis 7+)]. */
function parseClaim(stream: string, reply: unknown): { next: string; entries: Entry[] } {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') return { next: '0-0', entries: [] };
  return { next: reply[0], entries: parseEntries(stream, reply[1]) };
}

function parseEntries(stream: string, raw: unknown): Entry[] {
  if (!Array.isArray(raw)) return [];
  const entries: Entry[] = [];
  for (const item of raw as unknown[]) {
    if (!Array.isArray(item) || typeof item[0] !== 'string') continue;
    const fields: unknown = item[1];
    entries.push({
      stream,
      id: item[0],
      fields: Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : null,
    });
  }
  return entries;
}

function decode(fields: string[] | null): AnyEventEnvelope | null {
  if (!fields) return null;
  const at = fields.indexOf('data');
  if (at < 0 || at + 1 >= fields.length) return null;
  try {
    const value: unknown = JSON.parse(fields[at + 1]);
    return isEventEnvelope(value) ? value : null;
  } catch {
    return null;
  }
}

/** XINFO GROUPS / CONSUMERS: one flat [field, value, ...] list per row. */
function flatRecords(reply: unknown): Record<string, unknown>[] {
  if (!Array.isArray(reply)) return [];
  return reply.filter(Array.isArray).map((row: unknown[]) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i + 1 < row.length; i += 2) record[String(row[i])] = row[i + 1];
    return record;
  });
}

/**
 * A group's sign of life: each of its consumers sets it, for one claim window, at every claim round
 * (half a window apart), so it lapses a window after the last consumer stopped. XINFO's idle time
 * cannot tell: Redis before 7.2 moves it only when a consumer receives or claims entries, so a
 * consumer of a quiet stream looked gone however often it read.
 */
function presenceKey(prefix: string, group: string): string {
  return `${prefix}alive:${group}`;
}

/** The stream's groups with a live consumer (the others' processes are gone). */
async function liveGroups(client: Redis, prefix: string, stream: string): Promise<string[]> {
  return liveAmong(client, prefix, flatRecords(await client.xinfo('GROUPS', stream)).map((group) => String(group.name)));
}

/** Of `groups`, those with a live consumer. */
async function liveAmong(client: Redis, prefix: string, groups: string[]): Promise<string[]> {
  if (groups.length === 0) return [];
  const signs = await client.mget(...groups.map((group) => presenceKey(prefix, group)));
  return groups.filter((_, i) => signs[i] !== null);
}

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

// --- connections ---

/** Logs an outage once and its end once; without an 'error' listener ioredis would crash the process. */
function watchConnection(conn: Redis, label: string, logger: Logger): void {
  let down = false;
  conn.on('error', (err: unknown) => {
    if (!down) logger.warn(`Redis connection (${label}) lost, reconnecting: ${message(err)}`);
    down = true;
  });
  conn.on('ready', () => {
    if (down) logger.log(`Redis connection (${label}) back`);
    down = false;
  });
}

async function quit(conn: Redis): Promise<void> {
  if (conn.status === 'ready') {
    try {
      await withTimeout(conn.quit(), 1_000);
      return;
    } catch {
      // fall through: drop it
    }
  }
  conn.disconnect();
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
