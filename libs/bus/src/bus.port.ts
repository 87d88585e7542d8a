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
  /**
   * Optional: handles several events queued for this consumer at once (in order), acknowledging
   * all of them or throwing, after which each is delivered to `handler` on its own. The
   * in-process and Redis Streams transports use it when events pile up (a bulk import): the
   * consumer then commits once per group instead of once per event.
   */
  handleBatch?: (events: AnyEventEnvelope[]) => Promise<void>;
  /**
   * Optional: told when events published meanwhile may never reach this subscription (Redis
   * Streams: its group was gone, Redis having restarted without its data, and was made again).
   * A subscriber that keeps state from the events (the gateway's session cut-offs) drops it.
   */
  onGap?: () => void;
}

export interface Subscription {
  close(): Promise<void>;
  /**
   * Whether everything published up to about now has reached this subscription: connected, past
   * what was published while it was not, and its last read not stalled. Absent: always (the
   * in-process bus cannot miss an event).
   */
  inStep?(): boolean;
}

/**
 * What the in-process bus answers a publish with. It keeps events in memory only, so an event
 * is safe from a crash once every group has handled it, not when it is queued: the emitter
 * keeps its outbox row until `handled` settles.
 */
export interface PublishReceipt {
  handled: Promise<void>;
}

/** One transport per engine: in-process, Redis Streams, Kafka. */
export interface BusTransport {
  readonly engine: 'memory' | 'redis' | 'kafka';
  connect(): Promise<void>;
  /** Resolves once the bus has taken the event; a durable bus (Redis, Kafka) then holds it. */
  publish(event: AnyEventEnvelope): Promise<PublishReceipt | void>;
  /**
   * A durable bus (Redis Streams): `publish` for several events in one round trip, taken in their
   * order (a unit's events once it committed). Rejects if any was refused; some may have been taken.
   */
  publishAll?(events: AnyEventEnvelope[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** In-process only: resolves once every event published so far was handled by each consumer it went to. */
  handledSoFar?(): Promise<void>;
  /**
   * A durable bus (Redis Streams): resolves true once every live consumer group of the event's
   * stream has handled this event, which this transport published; false when `timeoutMs` passed
   * first. The in-process bus answers the same through its receipt's `handled`.
   */
  untilHandled?(event: AnyEventEnvelope, timeoutMs: number): Promise<boolean>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}
