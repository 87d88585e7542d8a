import { Inject, Injectable } from '@nestjs/common';
import { UserCard } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { BlockDoc, blocksCollection, UserCardDoc, userCardsCollection } from './member-directory.collection';

/** Shown for a member whose registration this service has not seen (yet). */
function unknownCard(id: string): UserCard {
  return { id, username: '', display_name: 'Unknown member', profile_image_url: null };
}

/** Who exists and who blocks whom, as far as messaging needs to know. */
@Injectable()
export class MemberDirectory {
  private readonly cards: Collection<UserCardDoc>;
  private readonly blocks: Collection<BlockDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.cards = store.collection(userCardsCollection);
    this.blocks = store.collection(blocksCollection);
  }

  async upsertCard(card: UserCard): Promise<void> {
    await this.cards.updateOne(
      { _id: card.id },
      { $set: { username: card.username, display_name: card.display_name, profile_image_url: card.profile_image_url } },
      { upsert: true },
    );
  }

  /** Cards by id, in one query; unknown ids get a placeholder card. */
  async cardsById(ids: readonly string[]): Promise<Map<string, UserCard>> {
    const unique = [...new Set(ids)];
    const docs = unique.length ? await this.cards.find({ _id: { $in: unique } }) : [];
    const found = new Map(docs.map((d) => [d._id, toCard(d)]));
    return new Map(unique.map((id) => [id, found.get(id) ?? unknownCard(id)]));
  }

  /** The ids among `ids` that belong to no known user. */
  async unknownIds(ids: readonly string[]): Promise<string[]> {
    const docs = await this.cards.find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } });
    const known = new Set(docs.map((d) => d._id));
    return ids.filter((id) => !known.has(id));
  }

  async setBlock(blockerId: string, blockedId: string, blocked: boolean): Promise<void> {
    const _id = `${blockerId}:${blockedId}`;
    if (!blocked) {
      await this.blocks.deleteOne({ _id });
      return;
    }
    await this.blocks.updateOne({ _id }, { $set: { blocker_id: blockerId, blocked_id: blockedId } }, { upsert: true });
  }

  /** True when `userId` blocks, or is blocked by, any of `others`. */
  async blockedEitherWay(userId: string, others: readonly string[]): Promise<boolean> {
    const ids = [...others];
    const hits = await this.blocks.count({
      $or: [
        { blocker_id: userId, blocked_id: { $in: ids } },
        { blocked_id: userId, blocker_id: { $in: ids } },
      ],
    });
    return hits > 0;
  }
}

function toCard(doc: UserCardDoc): UserCard {
  return { id: doc._id, username: doc.username, display_name: doc.display_name, profile_image_url: doc.profile_image_url };
}
