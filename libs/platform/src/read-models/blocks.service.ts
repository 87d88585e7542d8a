import { Inject, Injectable } from '@nestjs/common';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { BlockDoc, blockId, blocksCollection } from './blocks.collection';
import { RelationVersions } from './relation-versions';

/**
 * Who blocks whom, as far as a service that does not own blocks needs to know. Rows are found by
 * the pair, never by `_id`: rows kept from before this shared model have ids of another form
 * (generated in reviews, `blocker>blocked` in notifications) and must still count and go.
 */
@Injectable()
export class BlocksReadModel {
  private readonly blocks: Collection<BlockDoc>;
  private readonly versions: RelationVersions;

  constructor(@Inject(STORE) store: Store) {
    this.blocks = store.collection(blocksCollection);
    this.versions = new RelationVersions(store);
  }

  /** Idempotent both ways: a repeated block keeps one row, a repeated unblock finds none. */
  async setBlock(blockerId: string, blockedId: string, blocked: boolean, at?: string): Promise<void> {
    // `at`: the event's occurredAt; an event older than the last one applied to the pair changes nothing.
    if (at && !(await this.versions.claim('block', blockerId, blockedId, at))) return;
    const pair = { blocker_id: blockerId, blocked_id: blockedId };
    if (!blocked) {
      await this.blocks.deleteMany(pair);
      return;
    }
    if (await this.blocks.findOne(pair)) return;
    try {
      await this.blocks.insert({ _id: blockId(blockerId, blockedId), ...pair });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** True when `userId` blocks, or is blocked by, any of `others`. */
  async blockedEitherWay(userId: string, others: readonly string[]): Promise<boolean> {
    return (await this.blockedAmong(userId, others)).size > 0;
  }

  /** Of `others`, those who blocked `userId` or whom `userId` blocked: lookups by the pair, each way. */
  async blockedAmong(userId: string, others: readonly string[]): Promise<Set<string>> {
    if (others.length === 0) return new Set();
    const ids = [...others];
    const [blocking, blockedBy] = await Promise.all([
      this.blocks.find({ blocker_id: userId, blocked_id: { $in: ids } }),
      this.blocks.find({ blocked_id: userId, blocker_id: { $in: ids } }),
    ]);
    return new Set([...blocking, ...blockedBy].map((d) => otherOf(d, userId)));
  }

  /**
   * Which of `pairs` a block stands between, either way, in one query for them all (a run of
   * events): the answer tells a pair's block whichever order its members are given in.
   */
  async blockedPairs(pairs: readonly (readonly [string, string])[]): Promise<(a: string, b: string) => boolean> {
    if (pairs.length === 0) return () => false;
    const firsts = [...new Set(pairs.map(([a]) => a))];
    const seconds = [...new Set(pairs.map(([, b]) => b))];
    const one = firsts.length === 1 ? firsts[0] : seconds.length === 1 ? seconds[0] : undefined;
    if (one !== undefined) {
      // One member on a side (a fan-out): lookups by the pair, which the document cache answers.
      const among = await this.blockedAmong(one, one === firsts[0] ? seconds : firsts);
      return (a, b) => (a === one && among.has(b)) || (b === one && among.has(a));
    }
    const docs = await this.blocks.find({
      $or: [
        { blocker_id: { $in: firsts }, blocked_id: { $in: seconds } },
        { blocker_id: { $in: seconds }, blocked_id: { $in: firsts } },
      ],
    });
    const found = new Set(docs.map((d) => blockId(d.blocker_id, d.blocked_id)));
    return (a, b) => found.has(blockId(a, b)) || found.has(blockId(b, a));
  }

  /** Everyone `userId` blocked or who blocked `userId`: each is hidden from the other. */
  async hiddenFrom(userId: string): Promise<string[]> {
    const docs = await this.blocks.find({ $or: [{ blocker_id: userId }, { blocked_id: userId }] });
    return [...new Set(docs.map((d) => otherOf(d, userId)))];
  }

  /** True when any of `blockerIds` blocks `userId` (one way only). */
  async isBlockedByAny(userId: string, blockerIds: readonly string[]): Promise<boolean> {
    if (blockerIds.length === 0) return false;
    return (await this.blocks.find({ blocked_id: userId, blocker_id: { $in: [...blockerIds] } })).length > 0;
  }

  /** The member deleted their account: every row with them on either side goes (a repeat finds none). */
  async forgetMember(userId: string): Promise<void> {
    await this.versions.forgetMember(userId);
    await this.blocks.deleteMany({ $or: [{ blocker_id: userId }, { blocked_id: userId }] });
  }
}

function otherOf(doc: BlockDoc, userId: string): string {
  return doc.blocker_id === userId ? doc.blocked_id : doc.blocker_id;
}
