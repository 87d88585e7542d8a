import { Transform } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { MEDIA_URL_PATTERN, mediaUrlMessage } from '../reviews/catalogue';
import { UserCard } from '../users/user-card';
import { IsVisibleName } from '../validation/text-rules';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const trimLower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** Same alphabet and bounds as the usernames the auth service derives. */
export const PROFILE_USERNAME_MIN = 3;
export const PROFILE_USERNAME_MAX = 24;
export const PROFILE_USERNAME_PATTERN = /^[a-z0-9_]+$/;
export const DISPLAY_NAME_MAX = 80;
export const BIO_MAX = 500;
export const IMAGE_URL_MAX = 2048;

/** PUT /users/profile: every field optional, only the named ones change (spec part 2 §2 Settings). */
export class UpdateProfileDto {
  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'Display name must not be empty' })
  @IsVisibleName('Display name')
  @MaxLength(DISPLAY_NAME_MAX)
  display_name?: string;

  @IsAbsentOrValid()
  @Transform(trimLower)
  @IsString()
  @MinLength(PROFILE_USERNAME_MIN, { message: `Username must be at least ${PROFILE_USERNAME_MIN} characters` })
  @MaxLength(PROFILE_USERNAME_MAX, { message: `Username must be at most ${PROFILE_USERNAME_MAX} characters` })
  @Matches(PROFILE_USERNAME_PATTERN, { message: 'Username may contain only letters, digits and underscores' })
  username?: string;

  @IsAbsentOrValid()
  @Transform(trim)
  @IsString()
  @MaxLength(BIO_MAX, { message: `Bio must be at most ${BIO_MAX} characters` })
  bio?: string;

  /** null clears the picture; otherwise an upload's /api/media/{id}, like every picture (issue 45 §6). */
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(IMAGE_URL_MAX)
  @Matches(MEDIA_URL_PATTERN, { message: mediaUrlMessage('profile_image_url') })
  profile_image_url?: string | null;
}

/** The spec's cache busters on GET /users/profile/{username}: accepted, ignored. */
export class ProfileQueryDto {
  @IsOptional() @IsString() @MaxLength(64) _t?: string;
  @IsOptional() @IsString() @MaxLength(64) _r?: string;
  @IsOptional() @IsString() @MaxLength(64) _cache?: string;
}

export class UsernameParamDto {
  @Transform(trimLower)
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username: string;
}

/** Any route naming another member by id: an opaque string, never an object. */
export class UserIdParamDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  id: string;
}

/** Spec part 1 §3: all false by default. */
export interface FollowStatus {
  isFollowing: boolean;
  isFollowed: boolean;
  isPending: boolean;
  isBlocked: boolean;
  isBlockedBy: boolean;
}

export const NO_FOLLOW_STATUS: FollowStatus = {
  isFollowing: false,
  isFollowed: false,
  isPending: false,
  isBlocked: false,
  isBlockedBy: false,
};

/** GET /users/profile/{username} (spec part 1 §3: User profile). */
export interface UserProfile extends UserCard {
  name: string;
  bio: string;
  /** Only on the viewer's own profile. */
  email?: string;
  created_at: string;
  followers_count: number;
  following_count: number;
  reviews_count: number;
  follow_status: FollowStatus;
  privacy_profile: PrivacyProfile;
  /** Whether the viewer may see reviews, followers and following (docs/decisions/social.md). */
  can_view_content: boolean;
}

export type PrivacyProfile = 'public' | 'friends' | 'private';
