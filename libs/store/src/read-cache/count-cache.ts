import type { Filter } from '../store.port';
import { setBounded } from './doc-cache';

/** A filter made of plain values only (no RegExp, Date or class), as one text; undefined for any other. */
export function countKey(filter: Filter): string | undefined {
  const plain = (value: unknown): boolean => {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
    if (Array.isArray(value)) return value.every(plain);
    return typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.values(value as object).every(plain);
  };
  return plain(filter) ? JSON.stringify(filter) : undefined;
}

/**
 * Counts of one collection by filter (a collection declared with `cacheCounts`; docs/decisions/
 * store.md). Coarse on purpose: any write of this process to the collection empties it, as does
 * another process's commit, and the store fills it under the document cache's rules. For counts a
 * page asks on every view of a collection written far less often than read (the unread badge).
 */
export class CountCache {
  private readonly counts = new Map<string, number>();

  constructor(readonly capacity: number) {}

  get(key: string): number | undefined {
    return this.counts.get(key);
  }

  put(key: string, count: number): void {
    setBounded(this.counts, key, count, this.capacity);
  }

  clear(): void {
    this.counts.clear();
  }
}
