import { Inject, Injectable } from '@nestjs/common';
import { UserCard } from '@app/contracts';
import { AuthenticatedUser } from '@app/platform';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { BlockDoc, blockId, blocksCollection } from './block.collection';
import { UserCardDoc, userCardsCollection } from './user-card.collection';

/** Who members are (cards) and who blocked whom, as far as this service needs to know. */
@Injectable()
export class DirectoryService {
  private readonly cards: Collection<UserCardDoc>;
  private readonly blocks: Collection<BlockDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.cards = store.collection(userCardsCollection);
    this.blocks = store.collection(blocksCollection);
  }

  async upsertCard(card: UserCard): Promise<void> {
    const { id, ...fields } = card;
    await this.cards.updateOne({ _id: id }, { $set: fields }, { upsert: true });
  }

  /**
   * A member can act here before their user.registered event arrives: keep a card from the
   * token so their name shows; the event overwrites it when it comes.
   */
  async ensureCard(user: AuthenticatedUser): Promise<void> {
    if (await this.cards.findById(user.id)) return;
    try {
      await this.cards.insert({ _id: user.id, username: user.username, display_name: user.username, profile_image_url: null });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Cards by id; an unknown member gets a neutral placeholder rather than breaking a list. */
  async cardsById(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const unique = [...new Set(ids)];
    const docs = unique.length ? await this.cards.find({ _id: { $in: unique } }) : [];
    const found = new Map(docs.map((d) => [d._id, toCard(d)]));
    return new Map(unique.map((id) => [id, found.get(id) ?? unknownCard(id)]));
  }

  async block(blockerId: string, blockedId: string): Promise<void> {
    await this.blocks.updateOne(
      { _id: blockId(blockerId, blockedId) },
      { $set: { blocker_id: blockerId, blocked_id: blockedId } },
      { upsert: true },
    );
  }

  async unblock(blockerId: string, blockedId: string): Promise<void> {
    await this.blocks.deleteOne({ _id: blockId(blockerId, blockedId) });
  }

  async isBlockedByAny(userId: string, blockerIds: readonly string[]): Promise<boolean> {
    if (blockerIds.length === 0) return false;
    return (await this.blocks.count({ blocked_id: userId, blocker_id: { $in: [...blockerIds] } })) > 0;
  }
}

function toCard(doc: UserCardDoc): UserCard {
  return { id: doc._id, username: doc.username, display_name: doc.display_name, profile_image_url: doc.profile_image_url };
}

function unknownCard(id: string): UserCard {
  return { id, username: 'unknown', display_name: 'Unknown member', profile_image_url: null };
}
