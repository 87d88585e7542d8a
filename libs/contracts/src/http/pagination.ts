import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_LIMIT = 100;

/** Query of every list route: page from 1, limit capped. Services extend it with their own filters. */
export class PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit = 20;
}

export interface PageWindow {
  page: number;
  limit: number;
  skip: number;
}

export function pageWindow(query: { page?: number; limit?: number }, defaultLimit = 20): PageWindow {
  const page = query.page && query.page > 0 ? query.page : 1;
  const limit = Math.min(query.limit && query.limit > 0 ? query.limit : defaultLimit, MAX_PAGE_LIMIT);
  return { page, limit, skip: (page - 1) * limit };
}
