import { Inject, Injectable } from '@nestjs/common';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { MuteDoc, mutesCollection } from './mutes.collection';
import { RelationVersions } from './relation-versions';

/** Who mutes whom. One way only: a mute hides the muted from the muter, never the other way round. */
@Injectable()
export class MutesReadModel {
  private readonly mutes: Collection<MuteDoc>;
  private readonly versions: RelationVersions;

  constructor(@Inject(STORE) store: Store) {
    this.mutes = store.collection(mutesCollection);
    this.versions = new RelationVersions(store);
  }

  /** Idempotent both ways: a repeated mute keeps one row, a repeated unmute finds none. */
  async setMute(muterId: string, mutedId: string, muted: boolean, at?: string): Promise<void> {
    // `at`: the event's occurredAt; an event older than the last one applied to the pair changes nothing.
    if (at && !(await this.versions.claim('mute', muterId, mutedId, at))) return;
    const pair = { muter_id: muterId, muted_id: mutedId };
    if (!muted) {
      await this.mutes.deleteMany(pair);
      return;
    }
    try {
      await this.mutes.insert({ _id: `${muterId}:${mutedId}`, ...pair });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Everyone `muterId` muted. */
  async mutedBy(muterId: string): Promise<string[]> {
    const docs = await this.mutes.find({ muter_id: muterId }, { projection: { muted_id: 1 } });
    return docs.map((d) => d.muted_id);
  }

  async isMuted(muterId: string, mutedId: string): Promise<boolean> {
    return (await this.mutes.findOne({ muter_id: muterId, muted_id: mutedId })) !== null;
  }

  /** Which of `pairs` (muter, muted) are mutes, in one query for them all (a run of events). */
  async mutedPairs(pairs: readonly (readonly [string, string])[]): Promise<(muterId: string, mutedId: string) => boolean> {
    if (pairs.length === 0) return () => false;
    const muters = [...new Set(pairs.map(([muter]) => muter))];
    const muted = [...new Set(pairs.map(([, m]) => m))];
    // One member on a side (a fan-out): lookups by the pair, which the document cache answers.
    const docs = await this.mutes.find({
      muter_id: muters.length === 1 ? muters[0] : { $in: muters },
      muted_id: muted.length === 1 ? muted[0] : { $in: muted },
    });
    const found = new Set(docs.map((d) => `${d.muter_id}:${d.muted_id}`));
    return (muterId, mutedId) => found.has(`${muterId}:${mutedId}`);
  }

  /** Of `muterIds`, those who muted `mutedId`. */
  async mutersAmong(mutedId: string, muterIds: readonly string[]): Promise<Set<string>> {
    if (muterIds.length === 0) return new Set();
    const docs = await this.mutes.find({ muted_id: mutedId, muter_id: { $in: [...muterIds] } });
    return new Set(docs.map((d) => d.muter_id));
  }

  /** The member deleted their account: every row with them on either side goes (a repeat finds none). */
  async forgetMember(userId: string): Promise<void> {
    await this.versions.forgetMember(userId);
    await this.mutes.deleteMany({ $or: [{ muter_id: userId }, { muted_id: userId }] });
  }
}
