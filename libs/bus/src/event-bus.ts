import { EventEnvelope, EventPayloads, EventType } from '@app/contracts';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Collection, newId, Store, STORE } from '@app/store';
import { BusTransport } from './bus.port';
import { OutboxDoc, outboxCollection } from './outbox.collection';
import { BUS_TRANSPORT } from './bus.tokens';

const RELAY_EVERY_MS = 1000;
/** An entry younger than this is still being published by its emitter. */
const RELAY_GRACE_MS = 2000;

export interface EmitOptions {
  /** Aggregate id: partition key, order holds per key. */
  key: string;
  actorId?: string | null;
}

/**
 * How a service announces a change. The event is written to the outbox first, then
 * published; a relay republishes whatever a crash or a bus outage left behind.
 */
@Injectable()
export class EventBus implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventBus.name);
  private readonly outbox: Collection<OutboxDoc>;
  private relayTimer?: NodeJS.Timeout;
  private relaying = false;

  constructor(
    @Inject(BUS_TRANSPORT) private readonly transport: BusTransport,
    @Inject(STORE) store: Store,
  ) {
    this.outbox = store.collection(outboxCollection);
  }

  async emit<T extends EventType>(type: T, payload: EventPayloads[T], options: EmitOptions): Promise<EventEnvelope<T>> {
    const event: EventEnvelope<T> = {
      id: newId(),
      type,
      version: 1,
      occurredAt: new Date().toISOString(),
      actorId: options.actorId ?? null,
      key: options.key,
      payload,
    };
    await this.outbox.insert({ _id: event.id, event: event as never, created_at: Date.now(), attempts: 0 });
    try {
      await this.transport.publish(event as never);
      await this.outbox.deleteOne({ _id: event.id });
    } catch (err) {
      this.logger.warn(`Publishing ${type} ${event.id} failed; the relay will retry: ${(err as Error).message}`);
    }
    return event;
  }

  onApplicationBootstrap(): void {
    void this.relay(0);
    this.relayTimer = setInterval(() => void this.relay(RELAY_GRACE_MS), RELAY_EVERY_MS);
    this.relayTimer.unref();
  }

  onApplicationShutdown(): void {
    if (this.relayTimer) clearInterval(this.relayTimer);
  }

  /** Publishes outbox entries older than `graceMs`, oldest first. */
  async relay(graceMs: number): Promise<number> {
    if (this.relaying) return 0;
    this.relaying = true;
    let published = 0;
    try {
      const pending = await this.outbox.find(
        { created_at: { $lte: Date.now() - graceMs } },
        { sort: { created_at: 1 }, limit: 500 },
      );
      for (const entry of pending) {
        await this.transport.publish(entry.event);
        await this.outbox.deleteOne({ _id: entry._id });
        published++;
      }
    } catch (err) {
      this.logger.warn(`Outbox relay paused: ${(err as Error).message}`);
    } finally {
      this.relaying = false;
    }
    return published;
  }
}
