import { ClassConstructor, plainToInstance } from 'class-transformer';
import { ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, ValidationError } from 'class-validator';
import fc from 'fast-check';
import { LoginDto, RegisterDto } from './auth/auth.dto';
import { MAX_PAGE_LIMIT, PageQueryDto } from './http/pagination';
import { CreateConversationDto, ConversationsQueryDto, MESSAGE_MAX_LENGTH, MessagesQueryDto, SendMessageDto } from './messaging/messaging.dto';
import { NotificationListQueryDto } from './notifications/notification.dto';
import { ActivityQueryDto, FeedQueryDto, SavedQueryDto } from './reviews/activity.dto';
import { CreateProductDto, ProductQueryDto, UpdateProductDto } from './reviews/product.dto';
import { CreateCommentDto, CreateReviewDto, ReportReviewDto, ReviewQueryDto, UpdateCommentDto, UpdateReviewDto } from './reviews/review.dto';
import { UserSearchQueryDto } from './social/discovery.dto';
import { FollowRequestsQueryDto } from './social/follows.dto';
import { UpdateProfileDto, UserIdParamDto } from './social/profile.dto';
import { UpdateSettingsDto } from './social/settings.dto';
import {
  CreateSquadDto,
  DecideJoinRequestDto,
  DiscoverSquadsQueryDto,
  JOIN_MESSAGE_MAX,
  JoinRequestsQueryDto,
  JoinSquadDto,
  SQUAD_NAME_MAX,
  SquadParamsDto,
  UpdateMemberRoleDto,
  UpdateSquadDto,
} from './squads/squads.dto';

/**
 * Property tests of the DTOs under the options every service's ValidationPipe uses
 * (libs/platform/src/http/validation.ts): whatever JSON arrives, validation answers with
 * field errors or a valid instance, and never throws.
 */
class Refused extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('refused');
  }
}

const pipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  exceptionFactory: (errors) => new Refused(errors),
});

/** The body or query through Nest's ValidationPipe as the services run it; a refusal is the only throw allowed. */
async function check<T extends object>(cls: ClassConstructor<T>, plain: unknown): Promise<{ dto: T; errors: ValidationError[] }> {
  try {
    return { dto: (await pipe.transform(plain, { type: 'body', metatype: cls })) as T, errors: [] };
  } catch (err) {
    if (err instanceof Refused) return { dto: plainToInstance(cls, plain) as T, errors: err.errors };
    throw err;
  }
}

const BODY_DTOS: [string, ClassConstructor<object>][] = [
  ['RegisterDto', RegisterDto],
  ['LoginDto', LoginDto],
  ['CreateReviewDto', CreateReviewDto],
  ['UpdateReviewDto', UpdateReviewDto],
  ['CreateCommentDto', CreateCommentDto],
  ['UpdateCommentDto', UpdateCommentDto],
  ['ReportReviewDto', ReportReviewDto],
  ['CreateProductDto', CreateProductDto],
  ['UpdateProductDto', UpdateProductDto],
  ['SendMessageDto', SendMessageDto],
  ['CreateConversationDto', CreateConversationDto],
  ['CreateSquadDto', CreateSquadDto],
  ['UpdateSquadDto', UpdateSquadDto],
  ['JoinSquadDto', JoinSquadDto],
  ['DecideJoinRequestDto', DecideJoinRequestDto],
  ['UpdateMemberRoleDto', UpdateMemberRoleDto],
  ['UpdateProfileDto', UpdateProfileDto],
  ['UpdateSettingsDto', UpdateSettingsDto],
];

const PAGE_DTOS: [string, ClassConstructor<PageQueryDto>, number][] = [
  ['PageQueryDto', PageQueryDto, MAX_PAGE_LIMIT],
  ['MessagesQueryDto', MessagesQueryDto, MAX_PAGE_LIMIT],
  ['ConversationsQueryDto', ConversationsQueryDto, MAX_PAGE_LIMIT],
  ['NotificationListQueryDto', NotificationListQueryDto, 50],
  ['ActivityQueryDto', ActivityQueryDto, MAX_PAGE_LIMIT],
  ['FeedQueryDto', FeedQueryDto, MAX_PAGE_LIMIT],
  ['SavedQueryDto', SavedQueryDto, MAX_PAGE_LIMIT],
  ['ProductQueryDto', ProductQueryDto, MAX_PAGE_LIMIT],
  ['ReviewQueryDto', ReviewQueryDto, MAX_PAGE_LIMIT],
  ['UserSearchQueryDto', UserSearchQueryDto, MAX_PAGE_LIMIT],
  ['FollowRequestsQueryDto', FollowRequestsQueryDto, MAX_PAGE_LIMIT],
  ['DiscoverSquadsQueryDto', DiscoverSquadsQueryDto, MAX_PAGE_LIMIT],
  ['JoinRequestsQueryDto', JoinRequestsQueryDto, MAX_PAGE_LIMIT],
];

/** Field names the DTOs use, so generated objects hit real fields as well as unknown ones. */
const FIELD_NAMES = [
  'email', 'name', 'password', 'product_id', 'rating', 'title', 'content', 'images', 'location', 'date', 'reason',
  'brand', 'description', 'price', 'category', 'features', 'image', 'memberIds', 'message', 'action', 'role',
  'display_name', 'username', 'bio', 'profile_image_url', 'notification_email', 'theme', 'privacy_profile',
  '$ne', '$gt', '$where', '__proto__', 'constructor', 'evil',
];

const operator = fc
  .tuple(fc.constantFrom('$ne', '$gt', '$regex', '$where', '$in'), fc.jsonValue())
  .map(([key, value]) => ({ [key]: value }));
/** Anything JSON.parse can give, plus operator objects and huge strings in the fields. */
const fieldValue = fc.oneof(fc.jsonValue(), operator, fc.string({ minLength: 0, maxLength: 20 }).map((s) => s.repeat(500)));
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 6 }),
  fc.jsonValue(),
);

/** Whitespace that String.prototype.trim removes, mixed into generated text. */
const spaced = (inner: fc.Arbitrary<string>) =>
  fc.tuple(fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000') }), inner, fc.string({ unit: fc.constantFrom(' ', '\t', '\n') })).map(([a, b, c]) => a + b + c);

describe('DTOs under arbitrary JSON', () => {
  it.each(BODY_DTOS)('%s never throws, and refusals name fields', async (_name, cls) => {
    await fc.assert(
      fc.asyncProperty(body, async (plain) => {
        const { errors } = await check(cls, plain);
        for (const e of errors) {
          // A field error names its field; a non-object body is refused as a whole.
          expect(typeof e.property === 'string' || e.property === undefined).toBe(true);
          expect(Object.keys(e.constraints ?? {}).length + (e.children?.length ?? 0)).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each(BODY_DTOS)('%s refuses an operator object in any of its fields', async (_name, cls) => {
    const fields = declaredFields(cls);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fields), operator, async (field, op) => {
        const { errors } = await check(cls, { [field]: op });
        expect(errors.map((e) => e.property)).toContain(field);
      }),
      { numRuns: 60 },
    );
  });

  it.each(BODY_DTOS)('%s refuses unknown fields and operator keys beside its own', async (_name, cls) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('$where', '$ne', 'evil', '_id', 'user_id', 'isAdmin'), fc.jsonValue(), async (key, value) => {
        const { errors } = await check(cls, { [key]: value });
        expect(errors.some((e) => e.property === key && e.constraints?.whitelistValidation)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

/** Every property the class validates, from class-validator's own metadata. */
function declaredFields(cls: ClassConstructor<object>): string[] {
  const known = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  return [...new Set(known.map((m) => m.propertyName))];
}

describe('paging', () => {
  it.each(PAGE_DTOS)('%s accepts exactly 1 <= page <= 100000 and 1 <= limit <= its cap', async (_name, cls, cap) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1000, max: 200_000 }), fc.integer({ min: -1000, max: 1000 }), async (page, limit) => {
        const { dto, errors } = await check(cls, { page: String(page), limit: String(limit) });
        const fields = errors.map((e) => e.property).sort();
        const expected = [...(page >= 1 && page <= 100_000 ? [] : ['page']), ...(limit >= 1 && limit <= cap ? [] : ['limit'])].sort();
        expect(fields).toEqual(expected);
        if (!expected.length) expect(dto).toMatchObject({ page, limit });
      }),
      { numRuns: 200 },
    );
  });

  it.each(PAGE_DTOS)('%s refuses non-numbers, fractions, repeated keys and operator keys', async (_name, cls) => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('page', 'limit'),
        fc.oneof(fc.constantFrom('abc', '1.5', '1e3x', '', ' ', 'NaN', 'Infinity'), fc.constant(['1', '2'])),
        async (key, value) => {
          const { errors } = await check(cls, { [key]: value });
          expect(errors.map((e) => e.property)).toContain(key);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('text rules', () => {
  const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 240, maxLength: 260 }), fc.string({ minLength: 1990, maxLength: 2010 }));

  it('message content is stored trimmed, and valid exactly when 1..2000 characters remain', async () => {
    await fc.assert(
      fc.asyncProperty(spaced(text), async (content) => {
        const { dto, errors } = await check(SendMessageDto, { content });
        const kept = content.trim();
        expect(errors.length === 0).toBe(kept.length >= 1 && kept.length <= MESSAGE_MAX_LENGTH);
        expect(dto.content).toBe(kept);
      }),
      { numRuns: 300 },
    );
  });

  it('a squad name is trimmed, required and at most 80 characters', async () => {
    await fc.assert(
      fc.asyncProperty(spaced(fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 75, maxLength: 90 }))), async (name) => {
        const { dto, errors } = await check(CreateSquadDto, { name });
        const kept = name.trim();
        expect(errors.length === 0).toBe(kept.length >= 1 && kept.length <= SQUAD_NAME_MAX);
        expect(dto.name).toBe(kept);
        if (!kept) expect(errors[0].constraints).toHaveProperty('isNotEmpty', 'Squad name is required');
      }),
      { numRuns: 300 },
    );
  });

  it('a join message counts what is kept after trimming: at most 250, blank allowed (the service stores blank as none)', async () => {
    await fc.assert(
      fc.asyncProperty(spaced(text), async (message) => {
        const { dto, errors } = await check(JoinSquadDto, { message });
        const kept = message.trim();
        expect(errors.length === 0).toBe(kept.length <= JOIN_MESSAGE_MAX);
        expect(dto.message).toBe(kept);
      }),
      { numRuns: 300 },
    );
  });

  it('a registration email is trimmed and lower-cased before it is checked', async () => {
    await fc.assert(
      fc.asyncProperty(spaced(fc.emailAddress()), fc.boolean(), async (email, upper) => {
        const given = upper ? email.toUpperCase() : email;
        const { dto } = await check(RegisterDto, { email: given, name: 'N', password: 'secret123' });
        expect(dto.email).toBe(given.trim().toLowerCase());
      }),
      { numRuns: 100 },
    );
  });

  it('a price printed in exponent form is refused with the price message, never a throw (class-validator reads the digits after a "." it does not find)', async () => {
    for (const price of [5e-324, -5e-324, 1e-7, 1.5e-9]) {
      const { errors } = await check(CreateProductDto, { name: 'Kettle', category: 'Electronics', price });
      expect(errors.map((e) => e.property)).toEqual(['price']);
    }
    for (const price of [0, 12.5, 19.99, 1e21]) {
      const { errors } = await check(UpdateProductDto, { price });
      expect(errors.map((e) => e.property)).toEqual(price === 1e21 ? ['price'] : []);
    }
  });

  it('ids in paths are bounded strings: never objects, never longer than 64', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 100 }), operator, fc.jsonValue()), async (id) => {
        for (const cls of [SquadParamsDto, UserIdParamDto] as ClassConstructor<{ id: unknown }>[]) {
          const { errors } = await check(cls, { id });
          const acceptable = typeof id === 'string' && id.length <= 64 && (cls === SquadParamsDto || id.length >= 1);
          expect(errors.length === 0).toBe(acceptable);
        }
      }),
      { numRuns: 200 },
    );
  });
});
