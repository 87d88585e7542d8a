import { EventPayloads, EVENT_TYPES, EventType } from './catalogue';

/** What travels on the bus (ARCHITECTURE §6). `key` is the aggregate id: the partition key. */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  actorId: string | null;
  key: string;
  payload: EventPayloads[T];
}

export type AnyEventEnvelope = { [T in EventType]: EventEnvelope<T> }[EventType];

const KNOWN = new Set<string>(EVENT_TYPES);

/** Checked when an event is consumed: a malformed envelope is refused, not half-handled. */
export function isEventEnvelope(value: unknown): value is AnyEventEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    e.id.length > 0 &&
    typeof e.type === 'string' &&
    KNOWN.has(e.type) &&
    typeof e.version === 'number' &&
    typeof e.occurredAt === 'string' &&
    typeof e.key === 'string' &&
    (e.actorId === null || typeof e.actorId === 'string') &&
    typeof e.payload === 'object' &&
    e.payload !== null
  );
}
