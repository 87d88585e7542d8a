import { defineCollection } from '@app/store';

/** Read model of member cards, fed by user.registered / user.updated (never the auth store). */
export interface UserCardDoc {
  _id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}

export const userCardsCollection = defineCollection<UserCardDoc>('user_cards');
