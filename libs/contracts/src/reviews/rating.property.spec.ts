import { ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { isRatingStep, RATING_MESSAGE } from './catalogue';
import { CreateReviewDto, UpdateReviewDto } from './review.dto';

/** The services' pipe options (libs/platform/src/http/validation.ts); a refusal comes back as its messages. */
const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true });

async function ratingErrors(cls: typeof CreateReviewDto | typeof UpdateReviewDto, rating: unknown): Promise<string[]> {
  try {
    // PUT cannot name a product; POST must, for the rating to be required.
    const body = cls === CreateReviewDto ? { product_id: 'p1', content: 'x', rating } : { content: 'x', rating };
    await pipe.transform(body, { type: 'body', metatype: cls });
    return [];
  } catch (err) {
    const body = (err as { getResponse(): { message: string[] } }).getResponse();
    return body.message;
  }
}

const halfSteps = fc.integer({ min: 1, max: 10 }).map((n) => n / 2);
/** Numbers that are not a half step in range: off-step fractions, 0, negatives, above 5, non-finite. */
const offSteps = fc
  .oneof(fc.double({ noNaN: false }), fc.integer({ min: -100, max: 100 }).map((n) => n / 2), fc.constantFrom(0, 5.5, 4.3, 0.25, Infinity))
  .filter((v) => !(Number.isInteger(v * 2) && v >= 0.5 && v <= 5));

describe('rating steps (issue 21 §1)', () => {
  it('accepts every half step from 0.5 to 5, on create and update', async () => {
    await fc.assert(
      fc.asyncProperty(halfSteps, async (r) => {
        expect(isRatingStep(r)).toBe(true);
        expect(await ratingErrors(CreateReviewDto, r)).toEqual([]);
        expect(await ratingErrors(UpdateReviewDto, r)).toEqual([]);
      }),
    );
  });

  it('refuses every other number with the spec message', async () => {
    await fc.assert(
      fc.asyncProperty(offSteps, async (r) => {
        expect(isRatingStep(r)).toBe(false);
        expect(await ratingErrors(CreateReviewDto, r)).toContain(RATING_MESSAGE);
        expect(await ratingErrors(UpdateReviewDto, r)).toContain(RATING_MESSAGE);
      }),
    );
  });

  it('refuses values that only look like ratings (strings, booleans, arrays, objects)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(halfSteps.map(String), fc.boolean(), fc.array(halfSteps, { maxLength: 2 }), fc.constant({ $gt: 0 })),
        async (r) => {
          expect(isRatingStep(r)).toBe(false);
          expect(await ratingErrors(CreateReviewDto, r)).toContain(RATING_MESSAGE);
        },
      ),
    );
  });

  it('keeps whole-number ratings stored before half stars valid', () => {
    for (const r of [1, 2, 3, 4, 5]) expect(isRatingStep(r)).toBe(true);
  });
});
