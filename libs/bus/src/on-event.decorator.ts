import { EventEnvelope, EventType } from '@app/contracts';
import { EventPattern } from '@nestjs/microservices';

export interface OnEventOptions<T extends EventType> {
  /**
   * Which events of the type concern this handler; it is not called for the others. When no
   * handler of a type is concerned, the delivery is acknowledged as `ignored`: no inbox row, no
   * transaction (a chat message without mentions costs the notifications service nothing).
   */
  when?: (event: EventEnvelope<T>) => boolean;
}

type Handler = (this: unknown, event: EventEnvelope<EventType>, ...rest: unknown[]) => unknown;

/** `@EventPattern` typed by the event catalogue: the handler receives `EventEnvelope<T>`. */
export function OnEvent<T extends EventType>(type: T, options: OnEventOptions<T> = {}): MethodDecorator {
  const when = options.when as OnEventOptions<EventType>['when'];
  if (!when) return EventPattern(type);
  return (target, key, descriptor) => {
    const handler = descriptor.value as unknown as Handler;
    const chosen: Handler = function (this: unknown, event, ...rest) {
      return when(event) ? handler.call(this, event, ...rest) : undefined;
    };
    (descriptor as PropertyDescriptor).value = chosen;
    EventPattern(type, { when })(target, key, descriptor);
  };
}

type BatchHandler = (this: unknown, events: EventEnvelope<EventType>[], ...rest: unknown[]) => unknown;

/**
 * A handler of a run of events of one type at once: it receives `EventEnvelope<T>[]`, in stream
 * order, each valid, not seen before and not ignored, so it can do set-based work (one statement
 * for the run, not one per event: a bulk import's thousands of events). Where the transport hands
 * a group over (`BusServer.dispatchAll`), each run of consecutive events of the type comes as one
 * array inside the group's unit; a single delivery comes as an array of one. All of a service's
 * handlers of one type take either single events or runs.
 */
export function OnEventBatch<T extends EventType>(type: T, options: OnEventOptions<T> = {}): MethodDecorator {
  const when = options.when as OnEventOptions<EventType>['when'];
  return (target, key, descriptor) => {
    if (when) {
      const handler = descriptor.value as unknown as BatchHandler;
      const chosen: BatchHandler = function (this: unknown, events, ...rest) {
        const concerned = events.filter(when);
        return concerned.length > 0 ? handler.call(this, concerned, ...rest) : undefined;
      };
      (descriptor as PropertyDescriptor).value = chosen;
    }
    EventPattern(type, { batch: true, ...(when && { when }) })(target, key, descriptor);
  };
}
