import { defineCollection } from '@app/store';

export type PrivacyProfile = 'public' | 'friends' | 'private';

/** Read model of each member's privacy_profile, fed by user.settings_updated; no row means public. */
export interface PrivacyDoc {
  _id: string;
  privacy_profile: PrivacyProfile;
  /** occurredAt of the event that set it: an older event arriving late changes nothing. */
  as_of: string;
}

export const privacyCollection = defineCollection<PrivacyDoc>('privacy', [{ fields: { privacy_profile: 1 } }]);
