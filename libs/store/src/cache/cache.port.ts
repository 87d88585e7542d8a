/**
 * The cache port (ARCHITECTURE §3): cache entries, presence, rate-limit counters and
 * timelines. Redis when REDIS_URL is set, in memory otherwise; same behaviour, which
 * cache.contract.spec.ts pins down. Values are strings: callers serialise.
 * TTLs are in seconds; fractions are allowed (kept to the millisecond).
 */
export interface ScoredMember {
  score: number;
  member: string;
}

export interface Cache {
  readonly engine: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  /** Replaces the value (and any TTL); without ttlSeconds the key never expires. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds 1 and returns the new count; a new key starts at 1 and expires after ttlSeconds (a rate window). */
  incr(key: string, ttlSeconds: number): Promise<number>;
  exists(key: string): Promise<boolean>;

  /** Sorted sets (timelines): adding an existing member moves it to the new score. */
  zadd(key: string, score: number, member: string): Promise<void>;
  zaddMany(key: string, entries: readonly ScoredMember[]): Promise<void>;
  zrem(key: string, member: string): Promise<void>;
  /** Members by rank, highest score first; start and stop are inclusive, negatives count from the end. */
  zrevrange(key: string, start: number, stop: number): Promise<string[]>;
  zcard(key: string): Promise<number>;
  /** Keeps the maxSize highest-scored members and drops the rest. */
  ztrim(key: string, maxSize: number): Promise<void>;

  /**
   * Opens the engine at boot. Redis: rejects within a few seconds, naming REDIS_URL, when it
   * cannot be reached (a cache that is down later is retried and never fails the process).
   */
  connect(): Promise<void>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** A TTL in whole milliseconds, at least 1; both engines refuse a TTL that is not positive. */
export function ttlToMs(ttlSeconds: number): number {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`TTL must be a positive number of seconds, got ${ttlSeconds}`);
  return Math.max(1, Math.round(ttlSeconds * 1000));
}
