import type { BaseDoc, Collection, Filter, Projection } from './store.port';
import { foldText } from './text-search';

/** Documents read (and written, all at once) per round of `fill`: a flat memory use however many are stored. */
export const FOLDED_KEY_FILL_BATCH = 200;

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A stored, folded copy of the fields a name search matches by substring (people, squads, the
 * product catalogue: docs/decisions/search.md). `$regex` cannot fold İ/ı or drop accents, so the
 * search matches the folded query against this copy instead: "sule" finds "Şule" and a name is
 * still found by its first letters. Writers set it with the fields (`of`); `fill` sets it on rows
 * stored before it existed. It is internal: replies and exports leave it out.
 */
export class FoldedKey<D extends BaseDoc> {
  constructor(
    readonly field: string,
    private readonly sources: readonly (keyof D & string)[],
  ) {}

  /** The folded fields, one per line, so a query matches within one field's text. */
  of(doc: Partial<D>): string {
    return this.sources.map((f) => foldText(String(doc[f] ?? ''))).join('\n');
  }

  /**
   * Documents whose folded fields contain the folded query (case- and diacritic-insensitive). Its
   * line breaks are read as spaces, so a match never runs from one field into the next.
   */
  matching(query: string): Filter {
    return { [this.field]: { $regex: new RegExp(escapeRegex(this.needle(query))) } };
  }

  /** The text a stored key must contain to match `query` (what `matching` looks for). */
  needle(query: string): string {
    return foldText(query).replace(/[\r\n]+/g, ' ');
  }

  /**
   * After a write that set the key from the document as read before it: a concurrent write of
   * another searched field (two admins editing a squad) can leave the key one edit behind. `doc`
   * is the state after the write; the key is set again from it unless a searched field changed
   * since (that write settles it in turn).
   */
  async settle(collection: Collection<D>, doc: D): Promise<void> {
    const want = this.of(doc);
    if ((doc as Record<string, unknown>)[this.field] === want) return;
    const unchanged = Object.fromEntries(this.sources.map((f) => [f, doc[f]]));
    await collection.updateOne({ ...unchanged, _id: doc._id }, { $set: { [this.field]: want } });
  }

  /**
   * Sets the key on every document lacking it, in id order; how many were set. Each write is
   * guarded on the key still being absent (a rename meanwhile set it from the new name, and wins),
   * so running it again finds nothing to do.
   */
  async fill(collection: Collection<D>, batch = FOLDED_KEY_FILL_BATCH): Promise<number> {
    const projection: Projection = Object.fromEntries(this.sources.map((f) => [f, 1 as const]));
    let filled = 0;
    let after = '';
    for (;;) {
      const docs = await collection.find(
        { _id: { $gt: after }, [this.field]: { $exists: false } },
        { sort: { _id: 1 }, limit: batch, projection },
      );
      if (docs.length === 0) return filled;
      const results = await Promise.all(
        docs.map((d) => collection.updateOne({ _id: d._id, [this.field]: { $exists: false } }, { $set: { [this.field]: this.of(d) } })),
      );
      filled += results.filter((r) => r.matched > 0).length;
      after = docs[docs.length - 1]._id;
    }
  }
}
