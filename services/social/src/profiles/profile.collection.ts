import { UserSettings } from '@app/contracts';
import { defineCollection } from '@app/store';

/**
 * A member as the social graph knows them: created from `user.registered`, edited here
 * (renames flow back to auth through `user.updated`). Follow counters are kept with guarded `$inc`;
 * reviews and squads are counted from the stats read model.
 */
export interface ProfileDoc {
  _id: string;
  username: string;
  display_name: string;
  name: string;
  email: string;
  bio: string;
  profile_image_url: string | null;
  created_at: string;
  followers_count: number;
  following_count: number;
  settings: UserSettings;
}

export const profilesCollection = defineCollection<ProfileDoc>('profiles', [
  { fields: { username: 1 }, unique: true },
  { fields: { followers_count: -1 } },
  { fields: { 'settings.privacy_profile': 1 } },
]);
