import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_LANGUAGE, EventPayloads, Language, UserCard } from '@app/contracts';
import { UserCardsReadModel } from '@app/platform';
import { Collection, STORE, Store } from '@app/store';
import { MemberDoc, membersCollection } from './member.collection';

/** How a notification reaches a member: preferences default to on (spec part 1 §9). */
export interface Recipient {
  id: string;
  display_name: string | null;
  email: string | null;
  language: Language;
  push: boolean;
  emailOn: boolean;
}

/** A notification names its actor by display name, or by username when that is empty. */
function named(card: UserCard): UserCard {
  return { ...card, display_name: card.display_name || card.username };
}

/**
 * The member read model. Each event sets only its own fields with an upsert, so the
 * events may arrive in any order and any number of times.
 */
@Injectable()
export class MembersService {
  private readonly members: Collection<MemberDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly userCards: UserCardsReadModel,
  ) {
    this.members = store.collection(membersCollection);
  }

  /** The card fields of the same event are the shared read model's. */
  async registered(p: EventPayloads['user.registered']): Promise<void> {
    await this.set(p.userId, { email: p.email, ...(p.language ? { language: p.language } : {}) });
  }

  async settingsUpdated(p: EventPayloads['user.settings_updated']): Promise<void> {
    await this.set(p.userId, { notification_push: p.notification_push, notification_email: p.notification_email });
  }

  async card(userId: string): Promise<UserCard | null> {
    const card = await this.userCards.card(userId);
    return card && named(card);
  }

  /** Known members' cards only: an unknown actor shows as no related_user. */
  async cards(userIds: string[]): Promise<Map<string, UserCard>> {
    const cards = await this.userCards.knownCards(userIds);
    return new Map([...cards].map(([id, card]) => [id, named(card)]));
  }

  async recipient(userId: string): Promise<Recipient> {
    const doc = await this.members.findById(userId);
    return {
      id: userId,
      display_name: doc?.display_name ?? null,
      email: doc?.email ?? null,
      language: doc?.language ?? DEFAULT_LANGUAGE,
      push: doc?.notification_push ?? true,
      emailOn: doc?.notification_email ?? true,
    };
  }

  /** A member who deleted their account: nothing is told to or about them any more. */
  isDeleted(userId: string): Promise<boolean> {
    return this.userCards.isDeleted(userId);
  }

  /** A late event about a deleted member writes nothing beside the tombstone. */
  private async set(userId: string, fields: Omit<MemberDoc, '_id'>): Promise<void> {
    if (await this.isDeleted(userId)) return;
    await this.members.updateOne({ _id: userId }, { $set: fields }, { upsert: true });
  }
}
