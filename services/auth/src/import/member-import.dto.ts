import { OmitType } from '@nestjs/mapped-types';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX, PASSWORD_MIN, RegisterDto } from '@app/contracts';

/** A bcrypt hash as bcryptjs writes it: `$2a$`/`$2b$`/`$2y$`, the cost, 53 characters of salt and digest. */
export const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/**
 * One member of a bulk import: registration's fields, with either the password (checked by the
 * same policy, then hashed) or, for members moved from another system or many members sharing
 * one password (a bench, a demo), its bcrypt hash.
 */
export class ImportMemberDto extends OmitType(RegisterDto, ['password'] as const) {
  @IsOptional()
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  password?: string;

  @IsOptional()
  @IsString()
  @Matches(BCRYPT_HASH, { message: 'password_hash must be a bcrypt hash' })
  password_hash?: string;
}
