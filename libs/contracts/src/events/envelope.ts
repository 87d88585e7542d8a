import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { EVENT_PAYLOAD_CLASSES, EVENT_VERSIONS, EventPayloads, EVENT_TYPES, EventType } from './catalogue';
import { compileEventCheck, EventCheck } from './event-check';

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

/**
 * Why this code cannot handle a well-formed envelope: a version it does not know, or a payload
 * its class refuses (`field: rule` each, values left out since they may be personal). Empty when
 * it can. Nothing is stripped: the handlers get the payload as it came.
 */
export function eventProblems(event: AnyEventEnvelope): string[] {
  const known: number = EVENT_VERSIONS[event.type];
  if (event.version !== known) return [`version ${event.version} is unknown here (this code reads ${known})`];
  // The compiled check answers for a valid payload; anything else takes class-validator's full path, which words it.
  if (checkOf(event.type)?.(event.payload) === true) return [];
  return payloadProblems(event);
}

/** class-validator's full path (plainToInstance, validateSync): what `eventProblems` answers when the compiled check cannot vouch. */
export function payloadProblems(event: AnyEventEnvelope): string[] {
  const payload = plainToInstance(EVENT_PAYLOAD_CLASSES[event.type] as ClassConstructor<object>, event.payload as object);
  return describe(validateSync(payload, { forbidUnknownValues: true }));
}

/** Each event type's payload class compiled once (`compileEventCheck`); null where it cannot be. */
const checks = new Map<EventType, EventCheck | null>();

function checkOf(type: EventType): EventCheck | null {
  let check = checks.get(type);
  if (check === undefined) checks.set(type, (check = compileEventCheck(EVENT_PAYLOAD_CLASSES[type] as new () => object) ?? null));
  return check;
}

function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.keys(e.constraints ?? {}).map((rule) => `${field}: ${rule}`);
    return [...own, ...describe(e.children ?? [], field)];
  });
}
