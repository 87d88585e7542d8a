import { AnyEventEnvelope } from '@app/contracts';
import { BusTransport, PublishReceipt, SubscribeOptions, Subscription } from '../bus.port';

interface Queued {
  event: AnyEventEnvelope;
  handled: () => void;
}

interface Consumer {
  options: SubscribeOptions;
  /** Events waiting, in publish order; one loop per consumer works through them. */
  queue: Queued[];
  /** The running loop (resolved when idle): keeps each consumer's deliveries in order. */
  tail: Promise<void>;
  running: boolean;
  /** Events queued and handled since it subscribed, and who waits for `handled` to reach a count. */
  queued: number;
  handled: number;
  waiters: { upTo: number; resolve: () => void }[];
}

const RETRY_DELAYS_MS = [50, 200, 1000, 5000];
/**
 * Most events handed to a consumer's `handleBatch` at once: the consumer's store takes no other
 * write while the group runs, so a group stays at tens of milliseconds of handlers.
 */
const MAX_BATCH = 64;

/**
 * The embedded profile's bus: every service lives in this process and shares one instance.
 * Groups split work round-robin by key (so order per key holds); a failing handler is
 * retried with back-off, as a redelivery would be.
 */
export class MemoryTransport implements BusTransport {
  readonly engine = 'memory' as const;
  private readonly groups = new Map<string, Consumer[]>();
  private closed = false;
  private held?: { until: Promise<void>; release: () => void };

  async connect(): Promise<void> {
    this.closed = false;
  }

  /**
   * Holds publishes until `release()`. A stack booting service by service uses it: a relay that
   * republishes at boot must not run before the groups of services still booting have subscribed.
   */
  hold(): void {
    if (this.held) return;
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    this.held = { until, release };
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  async publish(event: AnyEventEnvelope): Promise<PublishReceipt> {
    if (this.held) await this.held.until;
    if (this.closed) throw new Error('Bus is closed');
    // Copy so a handler can never change what another one sees.
    const frozen = JSON.parse(JSON.stringify(event)) as AnyEventEnvelope;
    const deliveries: Promise<void>[] = [];
    for (const consumers of this.groups.values()) {
      const interested = consumers.filter((c) => c.options.types.includes(event.type));
      if (interested.length === 0) continue;
      const chosen = interested[hash(event.key) % interested.length];
      deliveries.push(new Promise<void>((handled) => chosen.queue.push({ event: frozen, handled })));
      chosen.queued++;
      if (!chosen.running) {
        chosen.running = true;
        chosen.tail = this.work(chosen);
      }
    }
    return { handled: Promise.all(deliveries).then(() => undefined) };
  }

  /**
   * Works through a consumer's queue in order: several waiting events go to `handleBatch` when
   * the consumer has one (each on its own if that throws), a single one to `handler`.
   */
  private async work(consumer: Consumer): Promise<void> {
    await Promise.resolve(); // let the publisher queue what it publishes in the same tick
    try {
      while (consumer.queue.length > 0) {
        const group = consumer.queue.splice(0, consumer.options.handleBatch ? MAX_BATCH : 1);
        if (group.length > 1 && (await this.deliverBatch(consumer, group))) continue;
        for (const queued of group) {
          await this.deliver(consumer, queued.event);
          this.handled(consumer, queued);
        }
      }
    } finally {
      consumer.running = false;
    }
  }

  /** True when the whole group was handled at once; false leaves it to single deliveries. */
  private async deliverBatch(consumer: Consumer, group: Queued[]): Promise<boolean> {
    try {
      await consumer.options.handleBatch?.(group.map((q) => q.event));
    } catch {
      return false;
    }
    for (const queued of group) this.handled(consumer, queued);
    return true;
  }

  private handled(consumer: Consumer, queued: Queued): void {
    queued.handled();
    consumer.handled++;
    while (consumer.waiters.length > 0 && consumer.waiters[0].upTo <= consumer.handled) consumer.waiters.shift()?.resolve();
  }

  async handledSoFar(): Promise<void> {
    const consumers = [...this.groups.values()].flat().filter((c) => c.handled < c.queued);
    await Promise.all(consumers.map((c) => new Promise<void>((resolve) => c.waiters.push({ upTo: c.queued, resolve }))));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer: Consumer = { options, queue: [], tail: Promise.resolve(), running: false, queued: 0, handled: 0, waiters: [] };
    const list = this.groups.get(options.group) ?? [];
    list.push(consumer);
    this.groups.set(options.group, list);
    return {
      close: async () => {
        const current = this.groups.get(options.group) ?? [];
        this.groups.set(
          options.group,
          current.filter((c) => c !== consumer),
        );
        await consumer.tail;
      },
    };
  }

  async isHealthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.release();
    const tails = [...this.groups.values()].flat().map((c) => c.tail);
    this.groups.clear();
    await Promise.all(tails);
  }

  /** Waits until every delivery queued so far has run (tests and graceful shutdown). */
  async drain(): Promise<void> {
    let before: Promise<void>[] = [];
    do {
      before = [...this.groups.values()].flat().map((c) => c.tail);
      await Promise.all(before);
      await new Promise((r) => setImmediate(r));
    } while ([...this.groups.values()].flat().some((c, i) => c.tail !== before[i] || c.running || c.queue.length > 0));
  }

  private async deliver(consumer: Consumer, event: AnyEventEnvelope): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await consumer.options.handler(event);
        return;
      } catch (err) {
        if (this.closed || attempt >= RETRY_DELAYS_MS.length) {
          console.error(`[bus] ${consumer.options.group} gave up on ${event.type} ${event.id}: ${(err as Error).message}`);
          return;
        }
        await new Promise((r) => setTimeout(r, RETRY_DELAYS_MS[attempt]));
      }
    }
  }
}

function hash(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(h);
}
