import { Injectable } from '@nestjs/common';
import { UserCard } from '@app/contracts';
import { UserCardsReadModel } from '@app/platform';

/** Author cards for reviews' features, read from the shared user-card read model. */
@Injectable()
export class UserCardsService {
  constructor(private readonly cards: UserCardsReadModel) {}

  /** Cards by id, with the spec's 'Unknown User' for any not known yet. */
  cardsFor(ids: readonly string[]): Promise<Map<string, UserCard>> {
    return this.cards.cardsById(ids);
  }

  /** The member's card, or null when no such member has registered. */
  card(id: string): Promise<UserCard | null> {
    return this.cards.card(id);
  }
}
