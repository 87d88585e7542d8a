import { OmitType, PartialType } from '@nestjs/mapped-types';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
} from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';
import { REPORT_REASON_MAX } from '../moderation/report-reasons';
import {
  COMMENT_MAX,
  IMAGE_ALT_MAX,
  isRatingStep,
  MEDIA_URL_PATTERN,
  mediaUrlMessage,
  RATING_MESSAGE,
  REVIEW_CONTENT_MAX,
  REVIEW_IMAGES_MAX,
  REVIEW_TITLE_MAX,
} from './catalogue';
import { ProductCard } from './product.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/**
 * 0.5 to 5 in half steps (catalogue `isRatingStep`); 4.3, 0, 5.5 and '4' are refused. The rule
 * carries its JSON schema, which the OpenAPI document shows for a custom rule.
 */
function IsRatingStep(options?: ValidationOptions): PropertyDecorator {
  const jsonSchema = { type: 'number', minimum: 0.5, maximum: 5, multipleOf: 0.5 };
  return ValidateBy({ name: 'isRatingStep', constraints: [{ jsonSchema }], validator: { validate: (v) => isRatingStep(v) } }, options);
}

const IMAGE_ALT_MESSAGE = `Each image description must be at most ${IMAGE_ALT_MAX} characters`;
const IMAGE_ALTS_MESSAGE = 'image_alts needs images in the same request and at most one description per image';
function altsMatchImages(alts: unknown, args?: ValidationArguments): boolean {
  const images = (args?.object as { images?: unknown }).images;
  return Array.isArray(alts) && Array.isArray(images) && alts.length <= images.length;
}

const IMAGES_MESSAGE = mediaUrlMessage('Each image');

/**
 * POST /reviews (spec part 1 §3 review create payload plus the composer's extras).
 * Without product_id it is a home-composer post: rating optional, no product chip.
 */
export class CreateReviewDto {
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString({ message: 'product_id must be a string' })
  @IsNotEmpty({ message: 'product_id must not be empty' })
  @MaxLength(64)
  product_id?: string | null;

  /** Required when a product is linked. */
  @ValidateIf((o: CreateReviewDto) => (o.product_id !== undefined && o.product_id !== null) || (o.rating ?? null) !== null)
  @IsRatingStep({ message: RATING_MESSAGE })
  rating?: number | null;

  /** Cards hide the text behind 'Spoiler — show' until the reader asks (issue 21 §2). */
  @IsAbsentOrValid()
  @IsBoolean({ message: 'has_spoilers must be true or false' })
  has_spoilers?: boolean;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(REVIEW_TITLE_MAX)
  title?: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'Review content is required' })
  @MaxLength(REVIEW_CONTENT_MAX, { message: `Review content must be at most ${REVIEW_CONTENT_MAX} characters` })
  content: string;

  @IsAbsentOrValid()
  @IsArray()
  @ArrayMaxSize(REVIEW_IMAGES_MAX)
  @IsString({ each: true })
  @Matches(MEDIA_URL_PATTERN, { each: true, message: IMAGES_MESSAGE })
  images?: string[];

  /**
   * The images' descriptions (issue 21 §7), one per image in the same order ('' for none); sent
   * only together with `images`, never more entries than images.
   */
  @IsAbsentOrValid()
  @IsArray()
  @ArrayMaxSize(REVIEW_IMAGES_MAX)
  @IsString({ each: true })
  @MaxLength(IMAGE_ALT_MAX, { each: true, message: IMAGE_ALT_MESSAGE })
  @ValidateBy({ name: 'altsMatchImages', validator: { validate: altsMatchImages, defaultMessage: () => IMAGE_ALTS_MESSAGE } })
  image_alts?: string[];

  /** Composer location (one of the spec's cities, free text kept short). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Transform(trim)
  @IsString()
  @MaxLength(80)
  location?: string | null;

  /** Composer date (the day the experience happened). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsISO8601({}, { message: 'date must be an ISO 8601 date' })
  date?: string | null;
}

/**
 * PUT /reviews/{id}: the create rules, every field optional; the product link cannot change, and
 * a rating, once given, can be changed but not removed (it may feed a product's average).
 */
export class UpdateReviewDto extends PartialType(OmitType(CreateReviewDto, ['product_id', 'rating'] as const), {
  skipNullProperties: false,
}) {
  @IsAbsentOrValid()
  @IsRatingStep({ message: RATING_MESSAGE })
  rating?: number;
}

export const REVIEW_SORTS = ['recent', 'rating_desc', 'rating_asc'] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];

export class ReviewQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  userId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  productId?: string;

  /** Product detail's selector: Most Recent (default), Highest Rated, Lowest Rated. */
  @IsOptional()
  @IsIn(REVIEW_SORTS, { message: `sort must be one of ${REVIEW_SORTS.join(', ')}` })
  sort?: ReviewSort;
}

export class CreateCommentDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'Comment content is required' })
  @MaxLength(COMMENT_MAX, { message: `Comment must be at most ${COMMENT_MAX} characters` })
  content: string;
}

/** PUT /comments/{id}: the new text, under the same rules as a new comment. */
export class UpdateCommentDto extends CreateCommentDto {}

export const DUPLICATE_REPORT_MESSAGE = 'You have already reported this review';
export const DUPLICATE_COMMENT_REPORT_MESSAGE = 'You have already reported this comment';

/** POST /reviews/{id}/report: the reason is optional; blank counts as none. */
export class ReportReviewDto {
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @Transform(trim)
  @IsString({ message: 'reason must be a string' })
  @MaxLength(REPORT_REASON_MAX, { message: `reason must be at most ${REPORT_REASON_MAX} characters` })
  reason?: string | null;
}

/** POST /comments/{id}/report (issue 22 §3): the same optional reason as a review report. */
export class ReportCommentDto extends ReportReviewDto {}

/** Review (spec part 1 §3). `likes` and `like_count` carry the same number. */
export interface ReviewView {
  id: string;
  user_id: string;
  product_id: string | null;
  rating: number | null;
  title: string;
  content: string;
  images: string[];
  /** One description per image, '' where none was given (reviews stored before alt text: all ''). */
  image_alts: string[];
  /** The review's tags in their stored (lower-case) form. */
  tags: string[];
  location: string | null;
  date: string | null;
  created_at: string;
  updated_at: string;
  edited: boolean;
  /** False for reviews stored before spoilers existed. */
  has_spoilers: boolean;
  likes: number;
  like_count: number;
  comment_count: number;
  /** Whether the viewer likes / saved it. */
  liked: boolean;
  saved: boolean;
  user: UserCard;
  product: ProductCard | null;
  /** The viewer's keyword filter phrase this review matches (issue 22 §2): the web shows it collapsed as "Filtered: phrase". */
  filtered_by?: string;
}

/**
 * One earlier version of a review (GET /reviews/{id}/history, newest first). `edited_at` is when
 * this version was replaced by an edit; `written_at` when it had been written.
 */
export interface ReviewVersionView {
  version: number;
  content: string;
  rating: number | null;
  title: string;
  has_spoilers: boolean;
  written_at: string;
  edited_at: string;
}

/** Comment (spec part 1 §3) with its author card. */
export interface CommentView {
  id: string;
  reviewId: string;
  userId: string;
  content: string;
  createdAt: string;
  /** Set once its author edits it (PUT /comments/{id}); the thread shows 'düzenlendi'. */
  is_edited: boolean;
  edited_at: string | null;
  user: UserCard;
}

/** Like status (spec part 1 §3). */
export interface LikeStatus {
  liked: boolean;
  like_count: number;
}

export interface LikerView extends UserCard {
  liked_at: string;
}
