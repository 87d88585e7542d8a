import type { Role } from '../moderation/moderation.dto';
import { PickType } from '@nestjs/mapped-types';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { TWO_FACTOR_CODE, TWO_FACTOR_CODE_MESSAGE } from './account.dto';
import { LANGUAGES, Language } from './language';
import { PASSWORD_MAX, PASSWORD_MIN } from './password-limits';
import { IsPlainEmail, IsVisibleName, normalisedEmail } from '../validation/text-rules';

export * from './password-limits';
export * from './language';
export * from './account.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class RegisterDto {
  @Transform(normalisedEmail)
  @IsString()
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Email must be a valid email address' })
  @IsPlainEmail()
  @MaxLength(254)
  email: string;

  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'Name is required' })
  @IsVisibleName('Name')
  @MaxLength(80)
  name: string;

  @IsString()
  @MinLength(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  password: string;

  /** The web's language at sign-up: the account's language (settings, emails, notifications); English when absent. */
  @IsOptional()
  @IsIn(LANGUAGES)
  language?: Language;
}

/** POST /auth/password-reset: the same reply whether the email is known or not; `language` is the asker's. */
export class PasswordResetRequestDto extends PickType(RegisterDto, ['email', 'language'] as const) {}

/** Looked up as registration stores it (normalised); no other rule, so accounts from before the rules still sign in. */
export class LoginDto {
  @Transform(normalisedEmail)
  @IsString()
  @IsNotEmpty({ message: 'Email is required' })
  @MaxLength(254)
  email: string;

  @IsString()
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(PASSWORD_MAX)
  password: string;
}

/** PUT /auth/password: the current password proves it is the member; every older token ends. */
export class ChangePasswordDto {
  @IsString()
  @IsNotEmpty({ message: 'Current password is required' })
  @MaxLength(PASSWORD_MAX)
  current_password: string;

  @IsString()
  @MinLength(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  new_password: string;
}

/**
 * DELETE /users/me (issue 20 §5): the password confirms it is the member asking to be erased; with two-factor
 * sign-in on, a code from the app or a recovery code too (issue 43 §5), as a sign-in would ask.
 */
export class DeleteAccountDto {
  @IsString()
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(PASSWORD_MAX)
  password: string;

  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.replace(/\s/g, '').toLowerCase() : value))
  @IsString()
  @Matches(TWO_FACTOR_CODE, { message: TWO_FACTOR_CODE_MESSAGE })
  code?: string;
}

/** GET /auth/session: the member's session version; tokens that carry an older one are revoked. */
export interface SessionView {
  session_version: number;
}

/** The signed-in member as the web keeps it (spec part 1 §3: User). */
export interface AuthUser {
  id: string;
  username: string;
  email: string;
  display_name: string;
  name: string;
  avatar: string | null;
  created_at: string;
  /** Site role (issue 22 §3): the web shows the Moderation screen to moderators and admins. */
  role: Role;
  /**
   * The account's language in effect: the one its emails, notifications and export are written in (the one
   * stored, else the spec's default, English). The web shows and applies this one (issue 43 §1).
   */
  language: Language;
}

/** What staff see of an account through GET /auth/users: never an email or a hash. */
export interface PublicUser {
  id: string;
  username: string;
  display_name: string;
  name: string;
  avatar: string | null;
}

export interface AuthResult {
  token: string;
  user: AuthUser;
}

/** Claims of the JWT the auth service signs (HS256, with exp). */
export interface JwtClaims {
  sub: string;
  username: string;
  /** Session version at issue: a token older than the member's current version is revoked (logout, password change). */
  ver?: number;
  /** Site role at issue; absent (tokens from before roles) means member. A later role change overrides it in every service (MemberStanding); the token stays valid. */
  role?: Role;
  iat?: number;
  exp?: number;
}
