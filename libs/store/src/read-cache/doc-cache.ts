import type { CollectionDef } from '../store.port';

/** Freezes a decoded document whole: a reader that tried to change a shared copy would throw, not corrupt it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The field lists of the unique indexes (one field or several, no order): one document at most per list of values. */
export function uniqueKeysOf(def: CollectionDef<{ _id: string }>): string[][] {
  return def.indexes.filter((index) => index.unique && !index.orderBy).map((index) => Object.keys(index.fields));
}

/** Sets `key` in a map holding at most `capacity` entries, the oldest set going first (a Map keeps insertion order). */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  if (map.size >= capacity && !map.has(key)) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** A scalar a unique key may be looked up by. */
export type KeyValue = string | number;

export const isKeyValue = (value: unknown): value is KeyValue => typeof value === 'string' || typeof value === 'number';
/** One key's values as one map key (typed: the number 1 and the string '1' are two values). */
export const keyText = (values: readonly KeyValue[]) => values.map((v) => (typeof v === 'number' ? `n${v}` : `s${v}`)).join('\u0000');

/**
 * Documents of one collection read by id, decoded and frozen (a collection declared with
 * `cacheById`; docs/decisions/store.md). The SQLite store keeps it current: every write of this
 * process forgets the documents it touches, no read fills it while a transaction is open, and a
 * commit by another process (PRAGMA data_version) empties it. At most `capacity` documents, the
 * oldest filled going first.
 *
 * A document is also found by the values of a unique key (a profile by username, a like by review
 * and member) through a hint, values to id, that is only believed when the cached document still
 * holds those values: the unique index allows one such document, and the cached one is current.
 * A key read and found absent is kept as such until a document with those values is written here.
 */
export class DocCache<T extends { _id: string }> {
  /** null: read and found absent (a stamp row never written, say), which is worth knowing too. */
  private readonly docs = new Map<string, T | null>();
  /** Per unique key (its fields joined), values to the id of the document that held them when cached, or null: none did. */
  private readonly hints = new Map<string, Map<string, string | null>>();

  constructor(
    readonly capacity: number,
    /** The field lists of the unique indexes: lookups by them may be answered from here. */
    readonly uniqueKeys: readonly (readonly string[])[] = [],
  ) {
    for (const fields of uniqueKeys) this.hints.set(fields.join(), new Map());
  }

  /** The cached document whose unique key `fields` holds `values`, null when none does, undefined when not known. */
  byKey(fields: readonly string[], values: readonly KeyValue[]): T | null | undefined {
    const id = this.hints.get(fields.join())?.get(keyText(values));
    if (id === null) return null;
    const doc = id === undefined ? undefined : this.docs.get(id);
    return doc && fields.every((field, i) => (doc as Record<string, unknown>)[field] === values[i]) ? doc : undefined;
  }

  /** The document, null when it is known to be absent, undefined when not known. */
  get(id: string): T | null | undefined {
    return this.docs.get(id);
  }

  put(doc: T): T {
    this.keep(doc._id, deepFreeze(doc));
    this.eachKey(doc, (hints, text) => this.hint(hints, text, doc._id));
    return doc;
  }

  putAbsent(id: string): void {
    this.keep(id, null);
  }

  /** Of `ids` (each once), the documents known here and the ids not known (an id known absent is in neither). */
  lookUp(ids: readonly string[]): { found: T[]; missing: string[] } {
    const found: T[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const doc = this.docs.get(id);
      if (doc) found.push(doc);
      else if (doc === undefined) missing.push(id);
    }
    return { found, missing };
  }

  /** Keeps what a read of the `missing` ids found, and which of them it did not find; the kept (frozen) documents. */
  keepIds(missing: readonly string[], docs: T[]): T[] {
    const present = new Set(docs.map((d) => d._id));
    missing.filter((id) => !present.has(id)).forEach((id) => this.putAbsent(id));
    return docs.map((d) => this.put(d));
  }

  /** Keeps what a read of the `wanted` values of the unique key `fields` found, and which values no document holds; the kept documents. */
  keepKeys(fields: readonly string[], wanted: readonly KeyValue[][], docs: T[]): T[] {
    const found = docs.map((d) => fields.map((field) => (d as Record<string, unknown>)[field]));
    // A key field holding a list (an array matches any of its values) leaves absence unknown.
    if (found.every((values) => values.every(isKeyValue))) {
      const present = new Set(found.map((values) => keyText(values as KeyValue[])));
      for (const values of wanted) if (!present.has(keyText(values))) this.putAbsentKey(fields, values);
    }
    return docs.map((d) => this.put(d));
  }

  /** No document holds these values of the unique key `fields` (as read outside any transaction). */
  putAbsentKey(fields: readonly string[], values: readonly KeyValue[]): void {
    const hints = this.hints.get(fields.join());
    if (hints) this.hint(hints, keyText(values), null);
  }

  /**
   * A document this process writes: it is forgotten, and so is any key of its values known to be
   * absent (all of a key's, when the document holds a list there: it may match any of its values).
   */
  written(doc: T): void {
    this.docs.delete(doc._id);
    const fields = doc as Record<string, unknown>;
    for (const key of this.uniqueKeys) {
      const hints = this.hints.get(key.join())!;
      const values = key.map((field) => fields[field]);
      if (!values.every((value) => isKeyValue(value) || value === undefined || value === null)) hints.clear();
      else if (values.every(isKeyValue) && hints.get(keyText(values)) === null) hints.delete(keyText(values));
    }
  }

  private eachKey(doc: T, visit: (hints: Map<string, string | null>, text: string) => void): void {
    const fields = doc as Record<string, unknown>;
    this.uniqueKeys.forEach((key) => {
      const values = key.map((field) => fields[field]);
      if (values.every(isKeyValue)) visit(this.hints.get(key.join())!, keyText(values));
    });
  }

  private hint(hints: Map<string, string | null>, text: string, id: string | null): void {
    setBounded(hints, text, id, this.capacity);
  }

  private keep(id: string, value: T | null): void {
    setBounded(this.docs, id, value, this.capacity);
  }

  forget(id: string): void {
    this.docs.delete(id);
  }

  clear(): void {
    this.docs.clear();
    for (const ids of this.hints.values()) ids.clear();
  }
}
