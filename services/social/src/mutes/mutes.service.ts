import { Inject, Injectable } from '@nestjs/common';
import { ConnectionRow, PageWindow } from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { toConnection } from '../follows/follows.service';
import { ProfilesService } from '../profiles/profiles.service';
import { MuteDoc, mutesCollection } from './mute.collection';
import { SocialException } from '../social.errors';

export const MUTE_TEXT = {
  muted: 'User muted',
  unmuted: 'User unmuted',
  self: 'You cannot mute yourself',
} as const;

/**
 * Mutes are one-way and silent (docs/decisions/social.md, Mutes): follows stay, nothing changes
 * for the muted member, and both routes are idempotent so a retried tap never shows an error.
 */
@Injectable()
export class MutesService {
  private readonly mutes: Collection<MuteDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly profiles: ProfilesService,
    private readonly bus: EventBus,
  ) {
    this.mutes = store.collection(mutesCollection);
  }

  async mute(muterId: string, mutedId: string): Promise<void> {
    if (muterId === mutedId) throw new SocialException('CANNOT_MUTE_SELF', MUTE_TEXT.self);
    await this.profiles.require(mutedId);
    if (await this.mutes.findOne({ muter_id: muterId, muted_id: mutedId })) return;
    const row = { _id: newId(), muter_id: muterId, muted_id: mutedId, created_at: new Date().toISOString() };
    try {
      await this.bus.emitWith(muteEvent('mute.created', row, true), () => this.mutes.insert(row));
    } catch (err) {
      // A concurrent mute of the same pair won: the pair is muted either way.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async unmute(muterId: string, mutedId: string): Promise<void> {
    if (muterId === mutedId) throw new SocialException('CANNOT_MUTE_SELF', MUTE_TEXT.self);
    await this.profiles.require(mutedId);
    const pair = { muter_id: muterId, muted_id: mutedId };
    // Nothing removed: the event is dropped (EventBus.emitWith forgets it on a falsy result).
    await this.bus.emitWith(muteEvent('mute.removed', pair, false), () => this.mutes.deleteOne(pair));
  }

  async list(muterId: string, window: PageWindow): Promise<{ items: ConnectionRow[]; total: number }> {
    const filter = { muter_id: muterId };
    const [rows, total] = await Promise.all([
      this.mutes.find(filter, { sort: { created_at: -1, _id: -1 }, skip: window.skip, limit: window.limit }),
      this.mutes.count(filter),
    ]);
    const people = await this.profiles.byIds(rows.map((r) => r.muted_id));
    const items = rows.flatMap((r) => {
      const person = people.get(r.muted_id);
      return person ? [toConnection(person, r.created_at)] : [];
    });
    return { items, total };
  }
}

/** Proven by the pair's row: there after a mute, gone after an unmute (one row per pair). */
function muteEvent<T extends 'mute.created' | 'mute.removed'>(
  type: T,
  pair: Pick<MuteDoc, 'muter_id' | 'muted_id'>,
  present: boolean,
): PlannedEvent<T> {
  return {
    type,
    payload: { muterId: pair.muter_id, mutedId: pair.muted_id },
    key: pair.muter_id,
    actorId: pair.muter_id,
    proof: { collection: mutesCollection, match: { muter_id: pair.muter_id, muted_id: pair.muted_id }, present },
  };
}
