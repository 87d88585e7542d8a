import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE_LIMIT, PageQueryDto } from '../http/pagination';

export const ACTIVITY_TYPES = ['squad_join', 'review_created', 'review_liked', 'comment_created'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export class ActivityQueryDto extends PageQueryDto {
  /** /activities/user only: whose activities (default: the viewer). */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  userId?: string;

  @IsOptional()
  @IsIn(ACTIVITY_TYPES)
  type?: ActivityType;
}

/** Activity (spec part 2 §3): data.squad for squad_join, data.review / data.product for review activities. */
export interface ActivityView {
  id: string;
  type: ActivityType;
  user: { id: string; display_name: string; username: string; profile_image_url: string | null };
  data: {
    squad?: { id: string; name: string };
    review?: { id: string; title: string; rating: number | null };
    product?: { id: string; name: string } | null;
  };
  created_at: string;
}

export class SavedQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(['products', 'reviews'], { message: 'type must be products or reviews' })
  type?: 'products' | 'reviews';
}

export interface SavedStatus {
  saved: boolean;
}

/** One entry of GET /trending. */
export interface TrendingTopic {
  topic: string;
  category: string;
  reviews_this_week: number;
  reviews_last_week: number;
  /** Percentage change against the week before, rounded; null when last week had none (nothing to compare). */
  change_percent: number | null;
}

/** GET /feed: page size 10 by default (spec part 1 §9). */
export class FeedQueryDto extends PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  override limit = 10;

  /** Cache busters some clients add. */
  @IsOptional()
  @IsString()
  _t?: string;
}

/** GET /trending takes only a cache buster: any other parameter is a 400 like everywhere else. */
export class TrendingQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(32)
  _t?: string;
}
