import { BaseDoc, defineCollection } from '@app/store';

/** Read model of members' public identity, fed by `user.registered` / `user.updated` (`_id` = user id). */
export interface UserCardDoc extends BaseDoc {
  username: string;
  display_name: string;
  profile_image_url: string | null;
  /** The member deleted their account: the card is the bare DELETED_MEMBER_CARD and stays so. */
  deleted?: boolean;
  /** When the event the card came from was emitted: an older one arriving later changes nothing (issue 46). */
  card_at?: string;
}

/**
 * A row as the read model reads it. A collection that keeps other per-member fields beside the card
 * (notifications' `members`: email, preferences) may hold rows whose card has not arrived yet.
 */
export type StoredUserCard = BaseDoc & Partial<Omit<UserCardDoc, '_id'>>;

export const userCardsCollection = defineCollection<UserCardDoc>('user_cards', [{ fields: { username: 1 } }], { cacheById: 20_000 });
