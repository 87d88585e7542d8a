import { PartialType } from '@nestjs/mapped-types';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  Max,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';
import { IsVisibleName } from '../validation/text-rules';
import { IMAGE_ALT_MAX, MEDIA_URL_PATTERN, mediaUrlMessage, PRODUCT_CATEGORIES, ProductCategory } from './catalogue';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** Blank features are ignored (spec part 2 §5: a blank feature entry is ignored). */
const cleanFeatures = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((f) => (typeof f === 'string' ? f.trim() : f)).filter((f) => f !== '') : value;

const PRICE_MESSAGE = 'Price must be a number of at least 0 with at most 2 decimals';

/**
 * class-validator's `maxDecimalPlaces` reads the digits after the '.' of `String(value)` and
 * throws on a number printed in exponent form (`5e-324`: no '.'), a 500 for bad input. Below
 * 1e-6 a non-zero number prints as `…e-…` and has more than two decimals; from 1e21 up, `…e+…`,
 * and it is whole.
 */
function hasAtMostTwoDecimals(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const printed = String(value);
  if (printed.includes('e-')) return false;
  if (printed.includes('e+')) return true;
  return (printed.split('.')[1]?.length ?? 0) <= 2;
}

function AtMostTwoDecimals(options: { message: string }): PropertyDecorator {
  return ValidateBy({ name: 'atMostTwoDecimals', validator: { validate: hasAtMostTwoDecimals } }, options);
}
const CATEGORY_MESSAGE = `Category must be one of ${PRODUCT_CATEGORIES.join(', ')}`;
const IMAGE_MESSAGE = mediaUrlMessage('Image');

export class CreateProductDto {
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'Product name is required' })
  @IsVisibleName('Product name')
  @MaxLength(120)
  name: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @IsVisibleName('Brand')
  @MaxLength(80)
  brand?: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(5000)
  description?: string;

  @IsAbsentOrValid()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: PRICE_MESSAGE })
  @AtMostTwoDecimals({ message: PRICE_MESSAGE })
  @Min(0, { message: PRICE_MESSAGE })
  @Max(10_000_000)
  price?: number;

  @IsIn(PRODUCT_CATEGORIES, { message: CATEGORY_MESSAGE })
  category: ProductCategory;

  @IsAbsentOrValid()
  @Transform(cleanFeatures)
  @IsArray()
  @ArrayMaxSize(30)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  features?: string[];

  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Matches(MEDIA_URL_PATTERN, { message: IMAGE_MESSAGE })
  image?: string | null;

  /** The image's description (issue 21 §7); blank or null means none. */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(IMAGE_ALT_MAX, { message: `image_alt must be at most ${IMAGE_ALT_MAX} characters` })
  image_alt?: string | null;
}

/** Every field optional, the same rules as on create; null only clears the image. */
export class UpdateProductDto extends PartialType(CreateProductDto, { skipNullProperties: false }) {}

export class ProductQueryDto extends PageQueryDto {
  /** Name or description, case-insensitive. */
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100)
  search?: string;

  /** 'All' (or absent) means every category. */
  @IsOptional()
  @IsIn(['All', ...PRODUCT_CATEGORIES], { message: CATEGORY_MESSAGE })
  category?: ProductCategory | 'All';

  /** Cache busters some clients add. */
  @IsOptional()
  @IsString()
  _t?: string;
}

/** The product creator as the product list shows it ('Unknown User' when the card is missing). */
export interface ProductAuthor extends UserCard {
  name: string;
}

/** Product (spec part 1 §3, part 2 §3). rating is the exact average of the current reviews. */
export interface ProductView {
  id: string;
  slug: string;
  name: string;
  brand: string;
  description: string;
  price: number;
  category: ProductCategory;
  features: string[];
  image: string | null;
  /** The image's description; null when none (products stored before alt text too). */
  image_alt: string | null;
  rating: number;
  review_count: number;
  /** Product likes (the product card's Like button) and whether the viewer is one of them. */
  like_count: number;
  liked: boolean;
  /** Whether the viewer saved it (false for a visitor): the Save button is right on first paint. */
  saved: boolean;
  userId: string;
  user: ProductAuthor;
  createdAt: string;
  updatedAt: string;
}

/** How a review shows its product (spec part 1 §3). */
export interface ProductCard {
  id: string;
  slug: string;
  name: string;
  image_url: string | null;
  image_alt: string | null;
  category: ProductCategory;
}
