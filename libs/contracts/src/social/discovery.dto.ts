import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto } from '../http/pagination';
import { UserCard } from '../users/user-card';
import { FollowStatus } from './profile.dto';

export const SEARCH_TEXT_MAX = 100;
export const SUGGESTIONS_MAX = 20;

export class UserSearchQueryDto extends PageQueryDto {
  /** Matches display name or username, case-insensitive; empty lists everyone. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MaxLength(SEARCH_TEXT_MAX)
  search?: string;

  /** Cache buster some clients add. */
  @IsOptional() @IsString() @MaxLength(64) _t?: string;
}

export class SuggestionsQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(SUGGESTIONS_MAX)
  limit = 4;

  @IsOptional() @IsString() @MaxLength(64) _t?: string;
}

/** A person in search results and People to Follow (spec part 2 §3: User (people list)). */
export interface PersonRow extends UserCard {
  bio: string;
  followers_count: number;
  follow_status: FollowStatus;
}

export interface SuggestionRow extends PersonRow {
  /** How many of the people the viewer follows already follow this person. */
  mutual_count: number;
}

/** GET /users/stats (spec part 1 §3: User stats). */
export interface UserStats {
  reviewsCount: number;
  squadsCount: number;
  friendsCount: number;
}
