import { Inject, Injectable } from '@nestjs/common';
import { ConnectionRow, PageWindow } from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { FollowsService, toConnection } from '../follows/follows.service';
import { ProfilesService } from '../profiles/profiles.service';
import { BlockDoc, blocksCollection } from './block.collection';
import { SocialException } from '../social.errors';

export const BLOCK_TEXT = {
  blocked: 'User blocked',
  unblocked: 'User unblocked',
  self: 'You cannot block yourself',
  already: 'You have already blocked this user',
  notBlocked: 'You have not blocked this user',
} as const;

@Injectable()
export class BlocksService {
  private readonly blocks: Collection<BlockDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly profiles: ProfilesService,
    private readonly follows: FollowsService,
    private readonly bus: EventBus,
  ) {
    this.blocks = store.collection(blocksCollection);
  }

  /** The block row goes in first, so a follow racing it sees the block and undoes itself. */
  async block(blockerId: string, blockedId: string): Promise<void> {
    if (blockerId === blockedId) throw new SocialException('CANNOT_BLOCK_SELF', BLOCK_TEXT.self);
    await this.profiles.require(blockedId);
    const row = { _id: newId(), blocker_id: blockerId, blocked_id: blockedId, created_at: new Date().toISOString() };
    try {
      await this.bus.emitWith(blockEvent('block.created', row, true), () => this.blocks.insert(row));
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new SocialException('ALREADY_BLOCKED', BLOCK_TEXT.already);
      throw err;
    }
    await this.follows.severBothWays(blockerId, blockedId);
  }

  /** Unblocking restores nothing: the follows a block ended stay ended. */
  async unblock(blockerId: string, blockedId: string): Promise<void> {
    const pair = { blocker_id: blockerId, blocked_id: blockedId };
    const removed = await this.bus.emitWith(blockEvent('block.removed', pair, false), () => this.blocks.deleteOne(pair));
    if (!removed) throw new SocialException('NOT_BLOCKED', BLOCK_TEXT.notBlocked);
  }

  async list(blockerId: string, window: PageWindow): Promise<{ items: ConnectionRow[]; total: number }> {
    const filter = { blocker_id: blockerId };
    const [rows, total] = await Promise.all([
      this.blocks.find(filter, { sort: { created_at: -1, _id: -1 }, skip: window.skip, limit: window.limit }),
      this.blocks.count(filter),
    ]);
    const people = await this.profiles.byIds(rows.map((r) => r.blocked_id));
    const items = rows.flatMap((r) => {
      const person = people.get(r.blocked_id);
      return person ? [toConnection(person, r.created_at)] : [];
    });
    return { items, total };
  }
}

/** Proven by the pair's row: there after a block, gone after an unblock (one row per pair). */
function blockEvent<T extends 'block.created' | 'block.removed'>(
  type: T,
  pair: Pick<BlockDoc, 'blocker_id' | 'blocked_id'>,
  present: boolean,
): PlannedEvent<T> {
  return {
    type,
    payload: { blockerId: pair.blocker_id, blockedId: pair.blocked_id },
    key: pair.blocker_id,
    actorId: pair.blocker_id,
    proof: { collection: blocksCollection, match: { blocker_id: pair.blocker_id, blocked_id: pair.blocked_id }, present },
    // Every service's copy of the block (messaging's above all) holds once the request returns.
    inForce: true,
  };
}
