import { defineCollection } from '@app/store';

/** Read model of members' public identity, fed by user.registered / user.updated (_id = user id). */
export interface UserCardDoc {
  _id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}

export const userCardsCollection = defineCollection<UserCardDoc>('user_cards', [{ fields: { username: 1 } }]);
