import { Inject, Injectable } from '@nestjs/common';
import { UserCard } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { UserCardDoc, userCardsCollection } from './user-card.collection';

/** A member whose card has not arrived yet (or who left): the spec's 'Unknown User'. */
export function unknownCard(id: string): UserCard {
  return { id, username: 'unknown', display_name: 'Unknown User', profile_image_url: null };
}

@Injectable()
export class UserCardsService {
  private readonly cards: Collection<UserCardDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.cards = store.collection(userCardsCollection);
  }

  /** Idempotent: the latest card wins. */
  async upsert(card: UserCard): Promise<void> {
    await this.cards.updateOne(
      { _id: card.id },
      { $set: { username: card.username, display_name: card.display_name, profile_image_url: card.profile_image_url } },
      { upsert: true },
    );
  }

  /** Cards by id, with a placeholder for any not known yet. */
  async cardsFor(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const unique = [...new Set(ids)];
    const docs = unique.length ? await this.cards.find({ _id: { $in: unique } }) : [];
    const map = new Map<string, UserCard>(unique.map((id) => [id, unknownCard(id)]));
    for (const d of docs) {
      map.set(d._id, { id: d._id, username: d.username, display_name: d.display_name, profile_image_url: d.profile_image_url });
    }
    return map;
  }

  async cardFor(id: string): Promise<UserCard> {
    return (await this.cardsFor([id])).get(id) ?? unknownCard(id);
  }
}
