import { Language } from '@app/contracts';
import { StoredUserCard } from '@app/platform';
import { defineCollection } from '@app/store';

/**
 * What this service knows of each member, fed by events: the card shown as related_user (kept
 * by the shared UserCardsReadModel, which writes into this collection: the cards have always lived
 * here), the address for the email outbox, and the notification preferences (absent means on).
 */
export interface MemberDoc extends StoredUserCard {
  email?: string;
  /** The member's language for emails and notifications (user.registered, then user.settings_updated); absent means the default. */
  language?: Language;
  notification_push?: boolean;
  notification_email?: boolean;
}

/** Read by id for every notification (card, preferences, standing): kept in memory. */
export const membersCollection = defineCollection<MemberDoc>('members', [], { cacheById: 20_000 });
