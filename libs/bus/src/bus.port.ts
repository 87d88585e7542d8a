import { AnyEventEnvelope, EventType } from '@app/contracts';

export type EventHandler = (event: AnyEventEnvelope) => Promise<void>;

export interface SubscribeOptions {
  /**
   * Consumer group: every replica of one service uses the same group so they split the
   * work (ARCHITECTURE §3). A group used by one process only (the gateway's per-instance
   * group) receives every event: that is how a broadcast is made.
   */
  group: string;
  /** This consumer's name inside its group (unique per process). */
  consumer: string;
  types: readonly EventType[];
  /**
   * Called once per delivery. Resolving acknowledges the event; throwing leaves it
   * unacknowledged so it is delivered again (at-least-once).
   */
  handler: EventHandler;
}

export interface Subscription {
  close(): Promise<void>;
}

/** One transport per engine: in-process, Redis Streams, Kafka. */
export interface BusTransport {
  readonly engine: 'memory' | 'redis' | 'kafka';
  connect(): Promise<void>;
  publish(event: AnyEventEnvelope): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}
