import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ProductView } from '../reviews/product.dto';
import { ReviewView } from '../reviews/review.dto';
import { PersonRow, SEARCH_TEXT_MAX } from '../social/discovery.dto';
import { SquadView } from '../squads/squads.views';

/** A group's page: 5 in the top bar, up to 20 on the results page (docs/decisions/search.md). */
export const SEARCH_GROUP_DEFAULT = 5;
export const SEARCH_GROUP_MAX = 20;

/** GET /api/search and each service's part of it (GET /api/reviews/search). */
export class SearchQueryDto {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(SEARCH_TEXT_MAX)
  q!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(SEARCH_GROUP_MAX)
  limit = SEARCH_GROUP_DEFAULT;

  /** Cache buster some clients add. */
  @IsOptional() @IsString() @MaxLength(64) _t?: string;
}

/** The reviews service's part: products and reviews matching the words, best first. */
export interface ReviewsSearchPart {
  products: ProductView[];
  reviews: ReviewView[];
  /** Tags named by the words or carried by the matching reviews, with how many reviews the viewer may see carry each (issue 43 §5). */
  tags: SearchTagView[];
}

/** One tag of the search's Tags group: its stored form (the `/tags/:tag` path) and its visible review count. */
export interface SearchTagView {
  tag: string;
  review_count: number;
}

/** GET /api/search: one short page per group, best match first. */
export interface SearchResultsView extends ReviewsSearchPart {
  users: PersonRow[];
  squads: SquadView[];
}
