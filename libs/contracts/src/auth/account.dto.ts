import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX, PASSWORD_MIN } from './password-limits';

/* Password reset and two-factor sign-in (issue 20). */

/** POST /auth/password-reset/confirm: the token from the emailed link. */
export class PasswordResetConfirmDto {
  @IsString()
  @IsNotEmpty({ message: 'Token is required' })
  @MaxLength(128)
  token: string;

  @IsString()
  @MinLength(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  new_password: string;
}

/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx). */
export const TWO_FACTOR_CODE = /^(\d{6}|[a-z2-7]{5}-?[a-z2-7]{5})$/i;
export const TWO_FACTOR_CODE_MESSAGE = 'Enter the 6-digit code from your app or a recovery code';

/** POST /auth/2fa/enable: the first code from the app proves it holds the secret. */
export class TwoFactorEnableDto {
  @Transform(({ value }) => (typeof value === 'string' ? value.replace(/\s/g, '') : value))
  @IsString()
  @Matches(/^\d{6}$/, { message: 'Enter the 6-digit code from your app' })
  code: string;
}

/** POST /auth/2fa/verify: the second step of a login. */
export class TwoFactorVerifyDto {
  @IsString()
  @IsNotEmpty({ message: 'Challenge is required' })
  @MaxLength(128)
  challenge: string;

  @Transform(({ value }) => (typeof value === 'string' ? value.replace(/\s/g, '').toLowerCase() : value))
  @IsString()
  @Matches(TWO_FACTOR_CODE, { message: TWO_FACTOR_CODE_MESSAGE })
  code: string;
}

/** POST /auth/2fa/disable: the password, so a borrowed session cannot turn it off. */
export class TwoFactorDisableDto {
  @IsString()
  @IsNotEmpty({ message: 'Password is required' })
  @MaxLength(PASSWORD_MAX)
  password: string;
}

/** What login answers instead of a token when the member has two-factor sign-in on. */
export interface TwoFactorChallenge {
  two_factor_required: true;
  /** Opaque, single-use, valid 5 minutes: send it back with the code to POST /auth/2fa/verify. */
  challenge: string;
}

/** POST /auth/2fa/setup: what the authenticator app needs; the secret is in the URL and the QR only. */
export interface TwoFactorSetupView {
  otpauth_url: string;
  /** data:image/png;base64,... */
  qr_code: string;
}

/** GET /auth/2fa */
export interface TwoFactorStatusView {
  enabled: boolean;
  recovery_codes_left: number;
}

/** POST /auth/2fa/enable: shown once, stored hashed. */
export interface RecoveryCodesView {
  recovery_codes: string[];
}
