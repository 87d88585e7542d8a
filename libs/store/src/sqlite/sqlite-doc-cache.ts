import type { CollectionDef } from '../store.port';

/** Freezes a decoded document whole: a reader that tried to change a shared copy would throw, not corrupt it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The fields that a unique index of that field alone covers: one document at most per value. */
export function uniqueFieldsOf(def: CollectionDef<{ _id: string }>): string[] {
  return def.indexes.filter((index) => index.unique && !index.orderBy && Object.keys(index.fields).length === 1).map((index) => Object.keys(index.fields)[0]);
}

/** A scalar a unique field may be looked up by. */
type KeyValue = string | number;

/**
 * Documents of one collection read by id, decoded and frozen (a collection declared with
 * `cacheById`; docs/decisions/store.md). The SQLite store keeps it current: every write of this
 * process forgets the documents it touches, no read fills it while a transaction is open, and a
 * commit by another process (PRAGMA data_version) empties it. At most `capacity` documents, the
 * oldest filled going first.
 *
 * A document is also found by the value of a unique field (a profile by username, a product by
 * slug) through a hint, value to id, that is only believed when the cached document still holds
 * that value: the unique index allows one such document, and the cached one is current.
 */
export class DocCache<T extends { _id: string }> {
  /** null: read and found absent (a stamp row never written, say), which is worth knowing too. */
  private readonly docs = new Map<string, T | null>();
  /** Per unique field, value to the id of the document that held it when it was cached. */
  private readonly hints = new Map<string, Map<KeyValue, string>>();

  constructor(
    readonly capacity: number,
    /** Fields a unique index of one field covers: lookups by them may be answered from here. */
    readonly uniqueFields: readonly string[] = [],
  ) {
    for (const field of uniqueFields) this.hints.set(field, new Map());
  }

  /** The cached document whose unique `field` is `value`, undefined when not known. */
  byKey(field: string, value: KeyValue): T | undefined {
    const id = this.hints.get(field)?.get(value);
    const doc = id === undefined ? undefined : this.docs.get(id);
    return doc && (doc as Record<string, unknown>)[field] === value ? doc : undefined;
  }

  /** The document, null when it is known to be absent, undefined when not known. */
  get(id: string): T | null | undefined {
    return this.docs.get(id);
  }

  put(doc: T): T {
    this.keep(doc._id, deepFreeze(doc));
    for (const [field, ids] of this.hints) {
      const value = (doc as Record<string, unknown>)[field];
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      if (ids.size >= this.capacity && !ids.has(value)) ids.delete(ids.keys().next().value as KeyValue);
      ids.set(value, doc._id);
    }
    return doc;
  }

  putAbsent(id: string): void {
    this.keep(id, null);
  }

  private keep(id: string, value: T | null): void {
    if (this.docs.size >= this.capacity && !this.docs.has(id)) this.docs.delete(this.docs.keys().next().value as string);
    this.docs.set(id, value);
  }

  forget(id: string): void {
    this.docs.delete(id);
  }

  clear(): void {
    this.docs.clear();
    for (const ids of this.hints.values()) ids.clear();
  }
}
