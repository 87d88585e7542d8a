import { IsBoolean, IsIn } from 'class-validator';
import { IsAbsentOrValid } from '../http/partial-update';
import { PrivacyProfile } from './profile.dto';
// one list with the email language: a member has one language for screens, emails and notifications
import { DEFAULT_LANGUAGE, LANGUAGES, Language } from '../auth/language';

export const PRIVACY_VALUES: readonly PrivacyProfile[] = ['public', 'friends', 'private'];
export type Theme = 'light' | 'dark' | 'system';
export const THEME_VALUES: readonly Theme[] = ['light', 'dark', 'system'];

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
  // as the spec lists it; a new account takes the language its newcomer signed up in (user.registered)
  language: DEFAULT_LANGUAGE,
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
  @IsIn(LANGUAGES, { message: `language must be one of ${LANGUAGES.join(', ')}` })
  language?: Language;
}
