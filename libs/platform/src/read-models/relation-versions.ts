import { BaseDoc, Collection, defineCollection, DuplicateKeyError, Store } from '@app/store';

/** When the newest event applied to one relation of a read model was emitted (its `occurredAt`). */
export interface RelationVersionDoc extends BaseDoc {
  at: string;
  /** The two members of the relation: an erased member's versions go with them. */
  a: string;
  b: string;
}

/** Listed by every service that keeps the blocks, mutes or follow-graph read models. */
export const relationVersionsCollection = defineCollection<RelationVersionDoc>('relation_versions', [{ fields: { a: 1 } }, { fields: { b: 1 } }]);

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

  /**
   * True when an event of `at` is the newest seen for the relation `kind` of `a` to `b` (and is
   * recorded so); false when a newer one was applied.
   */
  async claim(kind: string, a: string, b: string, at: string): Promise<boolean> {
    const key = `${kind}:${a}:${b}`;
    for (;;) {
      if ((await this.rows.updateOne({ _id: key, at: { $lte: at } }, { $set: { at } })).matched > 0) return true;
      if (await this.rows.findById(key)) return false;
      try {
        await this.rows.insert({ _id: key, at, a, b });
        return true;
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // another delivery recorded one meanwhile: compare again
      }
    }
  }

  /**
   * `claim` for each of `relations`, in order: one read and one insert for those new to the store
   * and to this call, the others (a relation seen before, or twice here) one by one.
   */
  async claimMany(kind: string, relations: ReadonlyArray<{ a: string; b: string; at: string }>): Promise<boolean[]> {
    const keys = relations.map(({ a, b }) => `${kind}:${a}:${b}`);
    if (keys.length === 0) return [];
    const seen = new Set((await this.rows.find({ _id: { $in: [...new Set(keys)] } })).map((r) => r._id));
    const times = new Map<string, number>();
    keys.forEach((key) => times.set(key, (times.get(key) ?? 0) + 1));
    const fresh = keys.map((key) => !seen.has(key) && times.get(key) === 1);
    const claimed = keys.map(() => false);
    const firsts = relations.flatMap((r, i) => (fresh[i] ? [{ i, doc: { _id: keys[i], at: r.at, a: r.a, b: r.b } }] : []));
    try {
      if (firsts.length > 0) await this.rows.insertMany(firsts.map((f) => f.doc));
      firsts.forEach(({ i }) => (claimed[i] = true));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      fresh.fill(false); // another delivery recorded one meanwhile: each compares on its own
    }
    for (let i = 0; i < relations.length; i++) if (!fresh[i]) claimed[i] = await this.claim(kind, relations[i].a, relations[i].b, relations[i].at);
    return claimed;
  }

  /** A member's account was deleted: every version of their relations goes too (late events about them are dropped anyway). */
  async forgetMember(userId: string): Promise<void> {
    await this.rows.deleteMany({ $or: [{ a: userId }, { b: userId }] });
  }
}
