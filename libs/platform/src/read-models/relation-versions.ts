import { BaseDoc, Collection, defineCollection, DuplicateKeyError, Store } from '@app/store';

/** When the newest event applied to one relation of a read model was emitted (its `occurredAt`). */
export interface RelationVersionDoc extends BaseDoc {
  at: string;
}

/** Listed by every service that keeps the blocks, mutes or follow-graph read models. */
export const relationVersionsCollection = defineCollection<RelationVersionDoc>('relation_versions', []);

/**
 * Versioned relations (issue 46): an add and a remove of one relation (a block, a mute, a follow
 * edge) commute. A read model applies an event only when it is not older than the last one it
 * applied to the same relation, so a late follow.created (redelivered, or claimed after a failure
 * behind its follow.removed) no longer brings the edge back. A removal leaves its version behind
 * as the tombstone that refuses the older add. Ties apply (a redelivery of the same event is idempotent).
 */
export class RelationVersions {
  private readonly rows: Collection<RelationVersionDoc>;

  constructor(store: Store) {
    this.rows = store.collection(relationVersionsCollection);
  }

  /** True when an event of `at` is the newest seen for `key` (and is recorded so); false when a newer one was applied. */
  async claim(key: string, at: string): Promise<boolean> {
    for (;;) {
      if ((await this.rows.updateOne({ _id: key, at: { $lte: at } }, { $set: { at } })).matched > 0) return true;
      if (await this.rows.findById(key)) return false;
      try {
        await this.rows.insert({ _id: key, at });
        return true;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // another delivery recorded one meanwhile: compare again
      }
    }
  }
}
