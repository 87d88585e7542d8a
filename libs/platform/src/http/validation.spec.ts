import { ArgumentMetadata, HttpException, ValidationPipe } from '@nestjs/common';
import * as contracts from '@app/contracts';
import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { parse as parseQueryString } from 'node:querystring';
import { compileDto } from './dto-validator';
import { CompiledValidationPipe, validationErrorsToException } from './validation';

/**
 * The compiled validator against the ValidationPipe the services ran before it (same options):
 * for every DTO in @app/contracts and generated inputs, the same instance or the same 400.
 */
const reference = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  validationError: { target: false, value: false },
  exceptionFactory: validationErrorsToException,
});
const pipe = new CompiledValidationPipe();

type Dto = new () => object;
const storage = getMetadataStorage();
const DTOS: [string, Dto][] = Object.entries(contracts)
  .filter((entry): entry is [string, Dto] => typeof entry[1] === 'function' && /Dto$/.test(entry[0]))
  .filter(([, cls]) => storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false).length > 0);

function fields(cls: Dto): string[] {
  return Object.keys(storage.groupByPropertyName(storage.getTargetValidationMetadatas(cls, undefined as unknown as string, false, false)));
}

type Outcome = { ok: true; value: unknown } | { ok: false; status: number; body: unknown };

async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    if (err instanceof HttpException) return { ok: false, status: err.getStatus(), body: err.getResponse() };
    throw err;
  }
}

/** Each side gets its own copy: the full pipe edits its input in place (prototype keys, array gaps). */
const copy = (value: unknown) => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));

async function same(cls: Dto, input: unknown, type: ArgumentMetadata['type'] = 'body') {
  const metadata: ArgumentMetadata = { type, metatype: cls };
  const expected = await outcome(() => reference.transform(copy(input), metadata));
  const actual = await outcome(() => pipe.transform(copy(input), metadata));
  expect(actual).toStrictEqual(expected);
  if (actual.ok && expected.ok) expect((actual.value as object).constructor).toBe(cls);
}

/** Values as query strings and JSON bodies carry them, weighted to the shapes the DTOs check. */
const text = fc.oneof(
  fc.constantFrom('', ' ', '0', '1', '2', '10', '20', '50', '51', '100', '101', '100000', '100001', '-1', '1.5', '4.5', '1e3', 'NaN', 'abc'),
  fc.constantFrom('true', 'false', 'yes', 'recent', 'rating_desc', 'products', 'reviews', 'unread', 'all', 'member', 'admin'),
  fc.constantFrom('2026-01-02', '2026-01-02T03:04:05Z', 'not-a-date', '/api/media/abc', 'https://example.com/a.png', 'a@example.com'),
  fc.string({ maxLength: 12 }),
  fc.string({ minLength: 60, maxLength: 70 }),
  fc.string({ maxLength: 6 }).map((s) => `  ${s}  `),
);
const primitive = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: fc.oneof(fc.integer({ min: -2, max: 200 }), fc.constantFrom(0.5, 2.5, 4.3, 5, 5.5, 199.99)) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
const value = fc.oneof(
  { weight: 8, arbitrary: primitive },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('$ne', 'id', 'x'), text, { maxKeys: 2 }) },
);

function input(cls: Dto, values: fc.Arbitrary<unknown>) {
  const names = fields(cls);
  const known = fc.dictionary(fc.constantFrom(...names), values, { maxKeys: names.length });
  const stray = fc.dictionary(fc.constantFrom('evil', '$where', 'constructor', 'toString', '__proto__', 'cacheBuster'), values, { maxKeys: 1 });
  return fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: fc.tuple(known, stray).map(([a, b]) => ({ ...a, ...b })) });
}

describe('compiled DTO validation', () => {
  it('finds the DTOs of @app/contracts', () => {
    expect(DTOS.map(([name]) => name)).toEqual(expect.arrayContaining(['FeedQueryDto', 'CreateReviewDto', 'NotificationListQueryDto', 'UpdateSettingsDto']));
  });

  it.each(DTOS)('%s: same instance or same 400 as ValidationPipe for flat bodies', async (_name, cls) => {
    await fc.assert(fc.asyncProperty(input(cls, primitive), (plain) => same(cls, plain)), { numRuns: 150 });
  });

  it.each(DTOS)('%s: same answer for any body, the full pipe taking what the plan does not cover', async (_name, cls) => {
    await fc.assert(fc.asyncProperty(fc.oneof(input(cls, value), fc.jsonValue()), (plain) => same(cls, plain)), { numRuns: 60 });
  });

  it.each(DTOS)('%s: same answer for query strings as Fastify parses them', async (_name, cls) => {
    const names = fields(cls);
    const query = fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.constantFrom('evil', 'constructor')), text), { maxLength: 4 })
      .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
    await fc.assert(
      fc.asyncProperty(query, async (qs) => {
        const metadata: ArgumentMetadata = { type: 'query', metatype: cls };
        const expected = await outcome(() => reference.transform(parseQueryString(qs), metadata));
        const actual = await outcome(() => pipe.transform(parseQueryString(qs), metadata));
        expect(actual).toStrictEqual(expected);
      }),
      { numRuns: 80 },
    );
  });

  it('compiles every DTO that has rules and covers flat input without the full pipe', () => {
    const uncompiled = DTOS.filter(([, cls]) => !compileDto(cls)).map(([name]) => name);
    expect(uncompiled).toEqual([]);
    const feed = compileDto(contracts.FeedQueryDto);
    expect(feed?.({ page: '2', limit: '5' })).toEqual({ instance: Object.assign(new contracts.FeedQueryDto(), { page: 2, limit: 5 }), errors: [] });
    // Outside the plan: an unknown key, an array value, a nested object.
    expect(feed?.({ page: '2', evil: '1' })).toBeUndefined();
    expect(feed?.({ page: ['1', '2'] })).toBeUndefined();
    expect(feed?.({ page: { $ne: 1 } })).toBeUndefined();
  });

  it('takes route params as Fastify builds them (a prototype without properties) on the compiled path, with the same answers', async () => {
    // find-my-way's NullObject: params are `new NullObject()`.
    const NullObject = function () {} as unknown as new () => Record<string, unknown>;
    NullObject.prototype = Object.create(null);
    const params = (values: Record<string, unknown>) => Object.assign(new NullObject(), values);
    const cls = contracts.UsernameParamDto;
    expect(compileDto(cls)?.(params({ username: ' Ayse ' }))).toEqual({ instance: Object.assign(new cls(), { username: 'ayse' }), errors: [] });
    for (const values of [{ username: 'Bench_Vivid_5' }, { username: '' }, { username: 'x'.repeat(65) }, {}, { username: 'a', evil: '1' }]) {
      const metadata: ArgumentMetadata = { type: 'param', metatype: cls };
      expect(await outcome(() => pipe.transform(params(values), metadata))).toStrictEqual(await outcome(() => reference.transform(params(values), metadata)));
    }
    // A prototype that does add keys stays with the full pipe.
    const Keyed = function () {} as unknown as new () => Record<string, unknown>;
    Keyed.prototype = Object.assign(Object.create(null), { username: 'inherited' });
    expect(compileDto(cls)?.(new Keyed())).toBeUndefined();
  });

  it('answers with the field errors and messages of class-validator', async () => {
    const metadata: ArgumentMetadata = { type: 'query', metatype: contracts.FeedQueryDto };
    const refused = await outcome(() => pipe.transform({ page: '0', limit: 'abc' }, metadata));
    expect(refused).toEqual({
      ok: false,
      status: 400,
      body: expect.objectContaining({
        // FeedQueryDto redeclares `limit`, so its rules come before the inherited `page`.
        message: 'limit must not be greater than 100',
        errors: [
          { field: 'limit', messages: ['limit must not be greater than 100', 'limit must not be less than 1', 'limit must be an integer number'] },
          { field: 'page', messages: ['page must not be less than 1'] },
        ],
      }),
    });
  });

  it('leaves what it does not validate to the full pipe (custom parameters, primitives)', async () => {
    const user = { id: 'u1' };
    expect(await pipe.transform(user, { type: 'custom', metatype: Object })).toBe(user);
    expect(await pipe.transform('42', { type: 'param', metatype: Number, data: 'n' })).toBe(42);
    expect(await pipe.transform(undefined, { type: 'query', metatype: Boolean, data: 'flag' })).toBeUndefined();
  });
});
