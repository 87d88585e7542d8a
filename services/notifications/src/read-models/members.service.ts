import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_LANGUAGE, EventPayloads, Language, UserCard } from '@app/contracts';
import { MemberStanding, UserCardsReadModel } from '@app/platform';
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

/** What a notification needs to know of a member, from one read of the member rows (`MembersService.facts`). */
export interface MemberFacts {
  /** Their card as a notification names them (null when it has not arrived). */
  card: UserCard | null;
  recipient: Recipient;
  /** They deleted their account: nothing is told to or about them any more. */
  deleted: boolean;
}

/**
 * What a registration sets on the member's row beside the card (the shared UserCardsReadModel
 * writes both in one statement): the address for emails and the language to write them in.
 */
export function registrationFields(p: EventPayloads['user.registered']): Pick<MemberDoc, 'email' | 'language'> {
  return { email: p.email, ...(p.language && { language: p.language }) };
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
    private readonly standing: MemberStanding,
  ) {
    this.members = store.collection(membersCollection);
  }

  async settingsUpdated(p: EventPayloads['user.settings_updated']): Promise<void> {
    await this.set(p.userId, { notification_push: p.notification_push, notification_email: p.notification_email, ...(p.language ? { language: p.language } : {}) });
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

  /**
   * Card, preferences and standing of each of `userIds` in one query (the row holds all three: the
   * shared card model writes the card and its tombstone there). Deleted is the tombstone or, already
   * before this service's group handled user.deleted, the process's in-memory standing.
   */
  async facts(userIds: readonly string[]): Promise<Map<string, MemberFacts>> {
    const unique = [...new Set(userIds)];
    const docs = await this.members.find(unique.length === 1 ? { _id: unique[0] } : { _id: { $in: unique } });
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    return new Map(
      unique.map((id) => {
        const doc = byId.get(id);
        const card = doc && doc.username !== undefined ? named({ id, username: doc.username, display_name: doc.display_name ?? doc.username, profile_image_url: doc.profile_image_url ?? null }) : null;
        return [id, { card, recipient: recipientOf(id, doc), deleted: doc?.deleted === true || this.standing.isDeleted(id) }];
      }),
    );
  }

  async recipient(userId: string): Promise<Recipient> {
    return recipientOf(userId, await this.members.findById(userId));
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

/** How `doc` (or no row yet) is reached: preferences default to on. */
function recipientOf(userId: string, doc: MemberDoc | null | undefined): Recipient {
  return {
    id: userId,
    display_name: doc?.display_name ?? null,
    email: doc?.email ?? null,
    language: doc?.language ?? DEFAULT_LANGUAGE,
    push: doc?.notification_push ?? true,
    emailOn: doc?.notification_email ?? true,
  };
}
