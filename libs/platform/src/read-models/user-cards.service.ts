import { Inject, Injectable } from '@nestjs/common';
import { DELETED_MEMBER_CARD, EventPayloads, UserCard } from '@app/contracts';
import { Collection, CollectionDef, DuplicateKeyError, STORE, Store } from '@app/store';
import { AuthenticatedUser } from '../auth/current-user.decorator';
import { StoredUserCard, userCardsCollection } from './user-cards.collection';

export const USER_CARDS_OPTIONS = Symbol('USER_CARDS_OPTIONS');

export interface UserCardsOptions {
  /**
   * Where the cards live; `user_cards` by default. A parameter because notifications has kept its
   * cards in `members` beside other fields: renaming would strand the cards in the old data file.
   */
  collection?: CollectionDef<StoredUserCard>;
  /** What a member whose card has not arrived is shown as; the spec's 'Unknown User' by default. */
  placeholder?: Pick<UserCard, 'username' | 'display_name'>;
  /**
   * The service's own fields of a member's row taken from their registration (notifications: the
   * email and language), written with the card: a run of registrations is then one insert of whole
   * rows, not one insert and a second handler's update of each row.
   */
  registration?: (payload: EventPayloads['user.registered']) => Record<string, unknown>;
}

/** A card to keep, from the event of `at`; `fields`: the row's other fields to set with it, whatever the card's age. */
export interface CardChange {
  card: UserCard;
  at: string;
  fields?: Record<string, unknown>;
}

const TOMBSTONE_ATTEMPTS = 3;

const SPEC_PLACEHOLDER: Pick<UserCard, 'username' | 'display_name'> = { username: 'unknown', display_name: 'Unknown User' };

/** The card a token tells of a member acting before their registration arrived: the username stands for the name. */
export function cardFromToken(user: AuthenticatedUser): UserCard {
  return { id: user.id, username: user.username, display_name: user.username, profile_image_url: null };
}

/** Who members are, as far as a service that does not own profiles needs to know. */
@Injectable()
export class UserCardsReadModel {
  private readonly cards: Collection<StoredUserCard>;
  private readonly placeholder: Pick<UserCard, 'username' | 'display_name'>;
  private readonly registration?: UserCardsOptions['registration'];

  constructor(@Inject(STORE) store: Store, @Inject(USER_CARDS_OPTIONS) options: UserCardsOptions) {
    this.cards = store.collection(options.collection ?? userCardsCollection);
    this.placeholder = options.placeholder ?? SPEC_PLACEHOLDER;
    this.registration = options.registration;
  }

  /** A run of registrations (`at`: each event's occurredAt): their cards, with the service's own fields of the row. */
  async registered(events: ReadonlyArray<{ payload: EventPayloads['user.registered']; at: string }>): Promise<void> {
    const { registration } = this;
    await this.upsertCards(events.map(({ payload, at }) => ({ card: cardOf(payload), at, ...(registration && { fields: registration(payload) }) })));
  }

  /**
   * Idempotent: the card of the latest event wins (`at`, its occurredAt), whatever order the events
   * arrive in; other fields of the row are left alone. A deleted member's card stays deleted.
   */
  async upsertCard(card: UserCard, at?: string): Promise<void> {
    if (await this.isDeleted(card.id)) return;
    const fields = fieldsOf(card, at);
    if (!at) {
      await this.cards.updateOne({ _id: card.id }, { $set: fields }, { upsert: true });
      return;
    }
    for (;;) {
      const older = { _id: card.id, $or: [{ card_at: { $exists: false } }, { card_at: { $lte: at } }] };
      if ((await this.cards.updateOne(older, { $set: fields })).matched > 0) return;
      const row = await this.cards.findById(card.id);
      if (row?.card_at && row.card_at > at) return; // a newer card is there
      if (row) continue; // the row appeared meanwhile (another handler writes its other fields): try again
      try {
        await this.cards.insert({ _id: card.id, ...fields });
        return;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // one arrived meanwhile: compare again
      }
    }
  }

  /**
   * `upsertCard` for each, in order, and its `fields` set on the row unless the member is deleted:
   * one read (from the cache when it knows) and one insert of whole rows for the members with no
   * row yet who appear once here; the others one by one.
   */
  async upsertCards(cards: ReadonlyArray<CardChange>): Promise<void> {
    const rows = new Set((await this.rows(cards.map((c) => c.card.id))).map((d) => d._id));
    const times = new Map<string, number>();
    cards.forEach(({ card }) => times.set(card.id, (times.get(card.id) ?? 0) + 1));
    let fresh = new Set(cards.filter(({ card }) => !rows.has(card.id) && times.get(card.id) === 1));
    try {
      if (fresh.size > 0) await this.cards.insertMany([...fresh].map(({ card, at, fields }) => ({ _id: card.id, ...fields, ...fieldsOf(card, at) })));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      fresh = new Set(); // one arrived meanwhile: each compares on its own
    }
    for (const c of cards) {
      if (fresh.has(c)) continue;
      await this.upsertCard(c.card, c.at);
      // The card is there now (or a newer one, or the tombstone, which keeps no other field).
      if (c.fields) await this.cards.updateOne({ _id: c.card.id, deleted: { $ne: true } }, { $set: c.fields });
    }
  }

  /** Keeps `card` only when the member has no row yet (seen before their registration arrived); the event overwrites it. */
  async ensureCard(card: UserCard): Promise<void> {
    if (await this.cards.findById(card.id)) return;
    try {
      await this.cards.insert({
        _id: card.id,
        username: card.username,
        display_name: card.display_name,
        profile_image_url: card.profile_image_url,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /**
   * The member deleted their account: their row (with whatever else the service kept beside the
   * card) is replaced by a tombstone card. Repeating it changes nothing.
   */
  async tombstone(id: string): Promise<void> {
    for (let attempt = 0; attempt < TOMBSTONE_ATTEMPTS; attempt++) {
      if (await this.isDeleted(id)) return;
      await this.cards.deleteOne({ _id: id });
      try {
        await this.cards.insert({ _id: id, ...DELETED_MEMBER_CARD, deleted: true });
        return;
      } catch (err) {
        // A late card slipped in between: delete it again.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
  }

  /** Whether the member deleted their account (their card is a tombstone). */
  async isDeleted(id: string): Promise<boolean> {
    return (await this.cards.count({ _id: id, deleted: true })) > 0;
  }

  /** The member's card, or null when none has arrived. */
  async card(id: string): Promise<UserCard | null> {
    const doc = await this.cards.findById(id);
    return doc ? toCard(doc) : null;
  }

  /** The cards known among `ids`, in one query; unknown ids are absent. */
  async knownCards(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const cards = new Map<string, UserCard>();
    for (const doc of await this.rows(ids)) {
      const card = toCard(doc);
      if (card) cards.set(doc._id, card);
    }
    return cards;
  }

  /** The rows of `ids`, read by id alone: answered from the collection's cache (cacheById), absent ids included. */
  private async rows(ids: readonly string[]): Promise<StoredUserCard[]> {
    const unique = [...new Set(ids)];
    return unique.length ? this.cards.find({ _id: { $in: unique } }) : [];
  }

  /** A card for every id, in the order of `ids`; an unknown member gets the placeholder rather than breaking a list. */
  async cardsById(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const found = await this.knownCards(ids);
    return new Map([...new Set(ids)].map((id) => [id, found.get(id) ?? { id, ...this.placeholder, profile_image_url: null }]));
  }

  /** The ids among `ids` whose member deleted their account (their card is the tombstone). */
  async deletedIds(ids: readonly string[]): Promise<string[]> {
    // Filtered here rather than by the store: a filter beyond the ids would bypass the cache (a statement per message sent).
    return (await this.rows(ids)).filter((doc) => doc.deleted === true).map((doc) => doc._id);
  }

  /** The ids among `ids` that belong to no known member (a deleted member is none any more). */
  async unknownIds(ids: readonly string[]): Promise<string[]> {
    const known = new Set((await this.rows(ids)).filter((doc) => doc.deleted !== true && toCard(doc) !== null).map((doc) => doc._id));
    return ids.filter((id) => !known.has(id));
  }
}

/** The card a registration or a profile edit tells of. */
export function cardOf(p: EventPayloads['user.registered'] | EventPayloads['user.updated']): UserCard {
  return { id: p.userId, username: p.username, display_name: p.display_name, profile_image_url: p.profile_image_url };
}

/** What a card event writes on the member's row. */
function fieldsOf(card: UserCard, at?: string): Omit<StoredUserCard, '_id'> {
  return { username: card.username, display_name: card.display_name, profile_image_url: card.profile_image_url, ...(at && { card_at: at }) };
}

function toCard(doc: StoredUserCard): UserCard | null {
  if (doc.username === undefined) return null;
  return {
    id: doc._id,
    username: doc.username,
    display_name: doc.display_name ?? doc.username,
    profile_image_url: doc.profile_image_url ?? null,
  };
}
