import { AnyEventEnvelope, EventType, isEventEnvelope } from '@app/contracts';
import { Logger } from '@nestjs/common';
import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { Collection } from '@app/store';
import { lastValueFrom, isObservable } from 'rxjs';
import { BusTransport, Subscription } from './bus.port';
import { InboxDoc } from './outbox.collection';

export interface BusServerOptions {
  transport: BusTransport;
  group: string;
  consumer: string;
  /** Handled event ids; absent means no dedupe (broadcast consumers that only forward). */
  inbox?: Collection<InboxDoc>;
}

/**
 * The @nestjs/microservices strategy that feeds `@OnEvent` handlers from any transport.
 * It validates each envelope, skips an event id already handled, and acknowledges
 * only after every handler for the event has succeeded.
 */
export class BusServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(BusServer.name);
  private subscription?: Subscription;

  constructor(private readonly options: BusServerOptions) {
    super();
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    const types = [...this.messageHandlers.keys()] as EventType[];
    if (types.length > 0) {
      this.subscription = await this.options.transport.subscribe({
        group: this.options.group,
        consumer: this.options.consumer,
        types,
        handler: (event) => this.dispatch(event),
      });
    }
    callback();
  }

  async close(): Promise<void> {
    await this.subscription?.close();
  }

  on(): never {
    throw new Error('BusServer does not emit transport events');
  }

  unwrap<T>(): T {
    return this.options.transport as T;
  }

  /** Runs the handlers for one delivery; throws to leave it unacknowledged. */
  async dispatch(event: AnyEventEnvelope): Promise<void> {
    if (!isEventEnvelope(event)) {
      this.logger.error(`Dropped a malformed event on ${this.options.group}`);
      return;
    }
    const inbox = this.options.inbox;
    if (inbox && (await inbox.findById(event.id))) return;
    let handler = this.messageHandlers.get(event.type);
    while (handler) {
      const result = await handler(event);
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
      handler = handler.next;
    }
    if (inbox) {
      await inbox.updateOne(
        { _id: event.id },
        { $set: { type: event.type, handled_at: Date.now() } },
        { upsert: true },
      );
    }
  }
}
