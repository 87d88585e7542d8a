import { defineCollection } from '@app/store';

/**
 * What this service knows of each member, fed by events: the card shown as related_user,
 * the address for the email outbox, and the notification preferences (absent means on).
 */
export interface MemberDoc {
  _id: string;
  username?: string;
  display_name?: string;
  profile_image_url?: string | null;
  email?: string;
  notification_push?: boolean;
  notification_email?: boolean;
}

export const membersCollection = defineCollection<MemberDoc>('members');
