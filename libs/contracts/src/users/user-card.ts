/** How one member appears inside another service's reply (author, sender, requester...). */
export interface UserCard {
  id: string;
  username: string;
  display_name: string;
  profile_image_url: string | null;
}

/**
 * What a deleted member's card shows everywhere they still appear (issue 20 §5: messages they
 * sent, a squad they created): no name, no picture. The web shows its own translation of it.
 */
export const DELETED_MEMBER_CARD: Omit<UserCard, 'id'> = { username: '', display_name: 'Deleted member', profile_image_url: null };
