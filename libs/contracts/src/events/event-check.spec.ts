import fc from 'fast-check';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { AnyEventEnvelope, eventProblems, payloadProblems } from './envelope';
import { EVENT_PAYLOAD_CLASSES, EVENT_TYPES, EVENT_VERSIONS, EventType } from './catalogue';
import { compileEventCheck } from './event-check';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- class-transformer's @Type metadata, as event-check.ts reads it
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: { findTypeMetadata(cls: unknown, name: string): { typeFunction: () => unknown } | undefined } };

type Payload = new () => object;

const junk = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.array(fc.oneof(fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }),
);

/** A value the rules of one property would accept (most of the time), from its metadata. */
function fitting(cls: Payload, name: string, metas: ValidationMetadata[], depth: number): fc.Arbitrary<unknown> {
  const names = new Set(metas.map((m) => (m.type === ValidationTypes.CUSTOM_VALIDATION ? m.name : m.type)));
  const isIn = metas.find((m) => m.name === 'isIn');
  const type = defaultMetadataStorage.findTypeMetadata(cls, name);
  let value: fc.Arbitrary<unknown>;
  if (type && depth < 3) {
    const nested = payloadOf(type.typeFunction() as Payload, depth + 1);
    value = names.has('isArray') ? fc.array(nested, { maxLength: 3 }) : nested;
  } else if (isIn) value = fc.constantFrom(...(isIn.constraints[0] as unknown[]));
  else if (names.has('isDateString')) value = fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
  else if (names.has('isArray')) value = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 });
  else if (names.has('isInt')) value = fc.integer();
  else if (names.has('isNumber')) value = fc.double({ noNaN: true, noDefaultInfinity: true });
  else if (names.has('isBoolean')) value = fc.boolean();
  else value = fc.string({ maxLength: 12 });
  return fc.oneof({ weight: 12, arbitrary: value }, { weight: 1, arbitrary: junk });
}

/** Payloads of `cls`: mostly fitting values, sometimes junk, a missing field or an extra one. */
function payloadOf(cls: Payload, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const grouped = getMetadataStorage().groupByPropertyName(getMetadataStorage().getTargetValidationMetadatas(cls, undefined as unknown as string, false, false, undefined));
  const fields = Object.fromEntries(Object.entries(grouped).map(([name, metas]) => [name, fitting(cls, name, metas, depth)]));
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), fc.boolean(), fc.string({ maxLength: 5 })).map(([payload, extra, key]) => (extra ? { ...payload, [`x_${key}`]: key } : payload));
}

const envelopeOf = (type: EventType, payload: unknown) =>
  ({ id: 'e1', type, version: EVENT_VERSIONS[type], occurredAt: new Date(0).toISOString(), actorId: null, key: 'k', payload }) as AnyEventEnvelope;

describe('compiled event check (issue 28 §4: class-validator per consumed event)', () => {
  it('compiles every payload class of the catalogue', () => {
    const uncompiled = EVENT_TYPES.filter((type) => !compileEventCheck(EVENT_PAYLOAD_CLASSES[type] as Payload));
    expect(uncompiled).toEqual([]);
  });

  it.each(EVENT_TYPES.map((type) => [type]))('%s: vouches only for what class-validator accepts, and eventProblems answers as before', (type) => {
    const check = compileEventCheck(EVENT_PAYLOAD_CLASSES[type] as Payload) as NonNullable<ReturnType<typeof compileEventCheck>>;
    let vouched = 0;
    fc.assert(
      fc.property(payloadOf(EVENT_PAYLOAD_CLASSES[type] as Payload), (payload) => {
        const full = payloadProblems(envelopeOf(type, payload));
        const verdict = check(payload);
        if (verdict === true) {
          vouched++;
          expect(full).toEqual([]);
        }
        if (verdict === false) expect(full.length).toBeGreaterThan(0);
        expect(eventProblems(envelopeOf(type, payload))).toEqual(full);
      }),
      { numRuns: 300, seed: 28 },
    );
    // The compiled path is the one valid events take, not a fallback that never answers.
    expect(vouched).toBeGreaterThan(0);
  });
});
