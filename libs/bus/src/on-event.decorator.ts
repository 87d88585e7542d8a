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
