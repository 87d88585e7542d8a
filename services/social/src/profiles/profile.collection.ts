import { UserSettings } from '@app/contracts';
import { defineCollection, FoldedKey } from '@app/store';

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
  /** Folded username and display name for the people search (absent until the boot fill on older rows). */
  search_key?: string;
}

/** Cached by id, and so by username too (the unique index): the profile page reads one per view. */
export const profilesCollection = defineCollection<ProfileDoc>('profiles', [
  { fields: { username: 1 }, unique: true },
  { fields: { followers_count: -1 } },
  { fields: { 'settings.privacy_profile': 1 } },
  // The substring search scans: on SQLite its count reads this index alone, no document parsed.
  { fields: { search_key: 1 } },
], { cacheById: 20_000 });

/** What the people search matches by substring, folded (ş=s, İ=ı=i). */
export const profileSearchKey = new FoldedKey<ProfileDoc>('search_key', ['username', 'display_name']);
