import { defineCollection } from '@app/store';

/** Read model of user cards, fed by `user.registered` / `user.updated` (the social service owns profiles). */
export interface UserCardDoc {
  _id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}

export const userCardsCollection = defineCollection<UserCardDoc>('user_cards', [{ fields: { username: 1 } }]);

/** Read model of blocks, fed by `block.created` / `block.removed`; `_id` is `blockerId:blockedId`. */
export interface BlockDoc {
  _id: string;
  blocker_id: string;
  blocked_id: string;
}

export const blocksCollection = defineCollection<BlockDoc>('blocks', [
  { fields: { blocker_id: 1 } },
  { fields: { blocked_id: 1 } },
]);
