import { EventType } from '@app/contracts';
import { EventPattern } from '@nestjs/microservices';

/** `@EventPattern` typed by the event catalogue: the handler receives `EventEnvelope<T>`. */
export const OnEvent = (type: EventType): MethodDecorator => EventPattern(type);
