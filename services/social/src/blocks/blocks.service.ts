import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ConnectionRow, PageWindow } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { FollowsService, toConnection } from '../follows/follows.service';
import { ProfilesService } from '../profiles/profiles.service';
import { BlockDoc, blocksCollection } from './block.collection';

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
    if (blockerId === blockedId) throw new BadRequestException(BLOCK_TEXT.self);
    await this.profiles.require(blockedId);
    try {
      await this.blocks.insert({ blocker_id: blockerId, blocked_id: blockedId, created_at: new Date().toISOString() });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ConflictException(BLOCK_TEXT.already);
      throw err;
    }
    await this.follows.severBothWays(blockerId, blockedId);
    await this.bus.emit('block.created', { blockerId, blockedId }, { key: blockerId, actorId: blockerId });
  }

  /** Unblocking restores nothing: the follows a block ended stay ended. */
  async unblock(blockerId: string, blockedId: string): Promise<void> {
    if ((await this.blocks.deleteOne({ blocker_id: blockerId, blocked_id: blockedId })) === 0) {
      throw new NotFoundException(BLOCK_TEXT.notBlocked);
    }
    await this.bus.emit('block.removed', { blockerId, blockedId }, { key: blockerId, actorId: blockerId });
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
