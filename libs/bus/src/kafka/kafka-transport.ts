import { AnyEventEnvelope, EVENT_TYPES, isEventEnvelope } from '@app/contracts';
import { Logger } from '@nestjs/common';
import { Admin, Consumer, Kafka, logLevel, LogEntry, Partitioners, Producer } from 'kafkajs';
import { BusTransport, SubscribeOptions, Subscription } from '../bus.port';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  /** Topic name = prefix + event type (default: the bare type). Tests give each case its own prefix. */
  topicPrefix?: string;
  /** Partitions of each topic this transport creates; order holds per key within one. */
  partitions?: number;
  /** Replicas per created topic; absent means the broker's default. */
  replicationFactor?: number;
  /** Create every catalogue topic at connect (default). Tests turn it off: subscribe creates what it reads. */
  createTopicsOnConnect?: boolean;
  /** How long closing a subscription waits for a running handler. */
  closeTimeoutMs?: number;
}

/** Same convention as the Redis transport: one process's private group, only what comes next. */
const BROADCAST_PREFIX = 'broadcast:';

/**
 * The production bus (ARCHITECTURE §2): one topic per event type, messages keyed by the
 * aggregate id so that order holds per aggregate, one consumer group per service.
 */
export class KafkaTransport implements BusTransport {
  readonly engine = 'kafka' as const;
  private readonly logger = new Logger('KafkaTransport');
  private readonly kafka: Kafka;
  private readonly prefix: string;
  private producer?: Producer;
  private admin?: Admin;
  private connecting?: Promise<{ producer: Producer; admin: Admin }>;
  private readonly knownTopics = new Set<string>();
  private readonly subscriptions = new Set<Subscription>();

  constructor(readonly options: KafkaOptions) {
    this.prefix = options.topicPrefix ?? '';
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.log(entry),
    });
  }

  async connect(): Promise<void> {
    await this.ready();
  }

  async publish(event: AnyEventEnvelope): Promise<void> {
    const { producer } = await this.ready();
    await producer.send({
      topic: this.prefix + event.type,
      acks: -1, // all in-sync replicas: required by the idempotent producer
      messages: [
        {
          key: event.key,
          value: JSON.stringify(event),
          headers: { 'event-id': event.id, 'event-type': event.type },
        },
      ],
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const { admin } = await this.ready();
    const topics = options.types.map((t) => this.prefix + t);
    await this.ensureTopics(admin, topics);
    const consumer = this.kafka.consumer({ groupId: options.group, maxWaitTimeInMs: 100 });
    try {
      await this.start(consumer, topics, options);
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    const subscription: Subscription = {
      close: async () => {
        this.subscriptions.delete(subscription);
        // disconnect() waits for the running handler; one that never settles must not block shutdown.
        await settleWithin(consumer.disconnect(), this.options.closeTimeoutMs ?? 5_000);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private async start(consumer: Consumer, topics: string[], options: SubscribeOptions): Promise<void> {
    await consumer.connect();
    // A new service group reads from the beginning so events published before it started
    // still reach it; a broadcast group only wants what comes next.
    await consumer.subscribe({ topics, fromBeginning: !options.group.startsWith(BROADCAST_PREFIX) });
    // kafkajs 2 joins the group inside run(), so once it resolves this consumer holds its partitions.
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const event = decode(message.value);
        if (!event) {
          this.logger.error(`Dropped a malformed message ${topic}[${partition}]@${message.offset}`);
          return;
        }
        // Throwing is deliberate: kafkajs then neither resolves nor commits this offset,
        // fetches again from it with back-off and, once its retries run out, restarts the
        // consumer from the last committed offset. So a failed event is delivered again
        // (at-least-once), and nothing behind it on the partition overtakes it.
        await options.handler(event);
      },
    });
  }

  async isHealthy(): Promise<boolean> {
    if (!this.admin) return false;
    try {
      await settleWithin(this.admin.describeCluster(), 2_000, true);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    const { producer, admin } = this;
    this.producer = undefined;
    this.admin = undefined;
    this.connecting = undefined;
    await Promise.all([producer?.disconnect(), admin?.disconnect()]);
  }

  private ready(): Promise<{ producer: Producer; admin: Admin }> {
    this.connecting ??= this.open().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  private async open(): Promise<{ producer: Producer; admin: Admin }> {
    const admin = this.kafka.admin();
    // Idempotent with one request in flight: retries neither duplicate nor reorder messages.
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner, // murmur2, same partitions as Java clients
    });
    try {
      await admin.connect();
      await producer.connect();
      // Every topic of the catalogue exists before anything is published or consumed.
      if (this.options.createTopicsOnConnect ?? true) {
        await this.ensureTopics(
          admin,
          EVENT_TYPES.map((t) => this.prefix + t),
        );
      }
    } catch (err) {
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      throw new Error(`Kafka at ${this.options.brokers.join(',')} is unreachable: ${message(err)}`);
    }
    this.admin = admin;
    this.producer = producer;
    return { producer, admin };
  }

  private async ensureTopics(admin: Admin, topics: readonly string[]): Promise<void> {
    let missing = topics.filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    const existing = new Set(await admin.listTopics());
    missing = missing.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: this.options.partitions ?? 3,
            replicationFactor: this.options.replicationFactor,
          })),
        });
      } catch (err) {
        // Another service may have created some of them at the same moment.
        const now = new Set(await admin.listTopics());
        if (!missing.every((t) => now.has(t))) throw err;
      }
    }
    topics.forEach((t) => this.knownTopics.add(t));
  }

  private log({ level, namespace, log }: LogEntry): void {
    const text = `${namespace}: ${log.message}`;
    if (level === logLevel.ERROR) this.logger.error(text);
    else if (level === logLevel.WARN) this.logger.warn(text);
    else this.logger.debug(text);
  }
}

function decode(value: Buffer | null): AnyEventEnvelope | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value.toString('utf8'));
    return isEventEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Waits for `promise` at most `ms`; past that, resolves anyway (or rejects when `strict`). */
function settleWithin<T>(promise: Promise<T>, ms: number, strict = false): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => (strict ? reject(new Error(`timed out after ${ms} ms`)) : resolve()), ms);
  });
  return Promise.race([promise.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
