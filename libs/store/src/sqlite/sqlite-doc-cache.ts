/** Freezes a decoded document whole: a reader that tried to change a shared copy would throw, not corrupt it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Documents of one collection read by id, decoded and frozen (a collection declared with
 * `cacheById`; docs/decisions/store.md). The SQLite store keeps it current: every write of this
 * process forgets the documents it touches, no read fills it while a transaction is open, and a
 * commit by another process (PRAGMA data_version) empties it. At most `capacity` documents, the
 * oldest filled going first.
 */
export class DocCache<T extends { _id: string }> {
  /** null: read and found absent (a stamp row never written, say), which is worth knowing too. */
  private readonly docs = new Map<string, T | null>();

  constructor(readonly capacity: number) {}

  /** The document, null when it is known to be absent, undefined when not known. */
  get(id: string): T | null | undefined {
    return this.docs.get(id);
  }

  put(doc: T): T {
    this.keep(doc._id, deepFreeze(doc));
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
  }
}
