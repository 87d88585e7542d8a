import { Transform } from 'class-transformer';
import { IsBoolean, IsISO8601, IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';

export const FILTER_PHRASE_MAX = 100;
/** A member's keyword filters at most (each review is checked against all of them). */
export const FILTERS_PER_MEMBER = 100;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** POST /filters (issue 22 §2). `expires_at` null or absent: the filter never expires. */
export class CreateKeywordFilterDto {
  @Transform(trim)
  @IsString({ message: 'phrase must be a string' })
  @IsNotEmpty({ message: 'phrase is required' })
  @MaxLength(FILTER_PHRASE_MAX, { message: `phrase must be at most ${FILTER_PHRASE_MAX} characters` })
  phrase!: string;

  @IsAbsentOrValid()
  @IsBoolean({ message: 'whole_word must be a boolean' })
  whole_word?: boolean;

  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string | null;
}

/** A member's keyword filter; `active` is false once `expires_at` has passed. */
export interface KeywordFilterView {
  id: string;
  phrase: string;
  whole_word: boolean;
  expires_at: string | null;
  active: boolean;
  created_at: string;
}
