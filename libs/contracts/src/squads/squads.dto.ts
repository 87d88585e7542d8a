import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { MAX_PAGE_LIMIT, PageQueryDto } from '../http/pagination';
import { IsVisibleName } from '../validation/text-rules';

/** Spec part 2 §3. */
export const SQUAD_CATEGORIES = [
  'General',
  'Technology',
  'Gaming',
  'Books',
  'Movies',
  'Music',
  'Sports',
  'Food',
  'Travel',
  'Art',
  'Science',
  'Fitness',
] as const;
export type SquadCategory = (typeof SQUAD_CATEGORIES)[number];

export const SQUAD_ROLES = ['admin', 'moderator', 'member'] as const;
export type SquadRole = (typeof SQUAD_ROLES)[number];

export const JOIN_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

export const JOIN_MESSAGE_MAX = 250;
export const SQUAD_NAME_MAX = 80;
export const SQUAD_DESCRIPTION_MAX = 1000;
export const SQUAD_NAME_REQUIRED = 'Squad name is required';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
/** A blank filter or field means "not given". */
const trimToUndefined = ({ value }: { value: unknown }) => {
  const v = trim({ value });
  return v === '' ? undefined : v;
};

/** Decorators apply bottom-up: the 'required' message comes first when a name is missing. */
export class CreateSquadDto {
  @Transform(trim)
  @MaxLength(SQUAD_NAME_MAX)
  @IsString({ message: SQUAD_NAME_REQUIRED })
  @IsNotEmpty({ message: SQUAD_NAME_REQUIRED })
  @IsVisibleName('Squad name')
  name!: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(SQUAD_DESCRIPTION_MAX)
  description?: string;

  @IsAbsentOrValid()
  @Transform(trimToUndefined)
  @IsIn(SQUAD_CATEGORIES, { message: `category must be one of: ${SQUAD_CATEGORIES.join(', ')}` })
  category?: SquadCategory;
}

export class UpdateSquadDto {
  @IsAbsentOrValid()
  @Transform(trim)
  @MaxLength(SQUAD_NAME_MAX)
  @IsString({ message: SQUAD_NAME_REQUIRED })
  @IsNotEmpty({ message: SQUAD_NAME_REQUIRED })
  @IsVisibleName('Squad name')
  name?: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(SQUAD_DESCRIPTION_MAX)
  description?: string;

  @IsAbsentOrValid()
  @IsIn(SQUAD_CATEGORIES, { message: `category must be one of: ${SQUAD_CATEGORIES.join(', ')}` })
  category?: SquadCategory;
}

/** Spec part 2 §9: discovery pages hold 10 squads. */
export const SQUAD_DISCOVER_PAGE_SIZE = 10;

export class DiscoverSquadsQueryDto extends PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  override limit = SQUAD_DISCOVER_PAGE_SIZE;

  @IsOptional()
  @Transform(trimToUndefined)
  @IsString()
  @MaxLength(100)
  search?: string;

  @IsOptional()
  @Transform(trimToUndefined)
  @IsIn(SQUAD_CATEGORIES, { message: `category must be one of: ${SQUAD_CATEGORIES.join(', ')}` })
  category?: SquadCategory;

  /** Cache buster some clients append. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  _t?: string;
}

export class JoinSquadDto {
  /** Trimmed first, so the 250 limit counts what is kept. */
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(JOIN_MESSAGE_MAX, { message: `message must be at most ${JOIN_MESSAGE_MAX} characters` })
  message?: string | null;
}

export class JoinRequestsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(JOIN_REQUEST_STATUSES)
  status: JoinRequestStatus = 'pending';
}

export class DecideJoinRequestDto {
  @IsIn(['approve', 'reject'], { message: 'action must be approve or reject' })
  action!: 'approve' | 'reject';
}

export class UpdateMemberRoleDto {
  @IsIn(SQUAD_ROLES, { message: 'role must be admin, moderator or member' })
  role!: SquadRole;
}

/** Route parameters: opaque ids, bounded. */
export class SquadParamsDto {
  @IsString()
  @MaxLength(64)
  id!: string;
}

export class JoinRequestParamsDto extends SquadParamsDto {
  @IsString()
  @MaxLength(64)
  requestId!: string;
}

export class MemberParamsDto extends SquadParamsDto {
  @IsString()
  @MaxLength(64)
  userId!: string;
}
