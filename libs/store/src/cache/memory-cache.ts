import { Cache, ScoredMember, ttlToMs } from './cache.port';

type Entry =
  | { kind: 'string'; value: string; expiresAt?: number }
  // `ranked` is in Redis order (score ascending, then member), so reads are slices.
  | { kind: 'zset'; scores: Map<string, number>; ranked: ScoredMember[] };

type ZSet = Extract<Entry, { kind: 'zset' }>;

/** Sweep expired keys now and then, so keys written once and never read (rate windows) do not pile up. */
const SWEEP_EVERY_WRITES = 1000;

function byRank(a: ScoredMember, b: ScoredMember): number {
  return a.score - b.score || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0);
}

/** First index whose entry ranks at or after `item` (binary search). */
function lowerBound(ranked: ScoredMember[], item: ScoredMember): number {
  let lo = 0;
  let hi = ranked.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byRank(ranked[mid], item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function wrongType(key: string): Error {
  return new Error(`WRONGTYPE Operation against a key holding the wrong kind of value: ${key}`);
}

/** The in-process engine of the embedded profile: one Map, TTLs checked when a key is read. */
export class MemoryCache implements Cache {
  readonly engine = 'memory' as const;
  private readonly entries = new Map<string, Entry>();
  private writes = 0;
  private closed = false;

  async get(key: string): Promise<string | null> {
    return this.text(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    const expiresAt = ttlSeconds === undefined ? undefined : Date.now() + ttlToMs(ttlSeconds);
    this.put(key, { kind: 'string', value, expiresAt });
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async incr(key: string, ttlSeconds: number): Promise<number> {
    const ttlMs = ttlToMs(ttlSeconds);
    const entry = this.text(key);
    if (!entry) {
      this.put(key, { kind: 'string', value: '1', expiresAt: Date.now() + ttlMs });
      return 1;
    }
    if (!/^-?\d+$/.test(entry.value)) throw new Error(`ERR value is not an integer: ${key}`);
    entry.value = String(Number(entry.value) + 1);
    return Number(entry.value);
  }

  async exists(key: string): Promise<boolean> {
    return this.live(key) !== undefined;
  }

  async zadd(key: string, score: number, member: string): Promise<void> {
    await this.zaddMany(key, [{ score, member }]);
  }

  async zaddMany(key: string, entries: readonly ScoredMember[]): Promise<void> {
    if (entries.length === 0) return;
    const set = this.zset(key) ?? { kind: 'zset', scores: new Map(), ranked: [] };
    for (const { score, member } of entries) {
      if (Number.isNaN(score)) throw new RangeError(`Score of ${member} is not a number`);
      this.unrank(set, member);
      const item = { score, member };
      set.ranked.splice(lowerBound(set.ranked, item), 0, item);
      set.scores.set(member, score);
    }
    this.put(key, set);
  }

  async zrem(key: string, member: string): Promise<void> {
    const set = this.zset(key);
    if (!set) return;
    this.unrank(set, member);
    if (set.ranked.length === 0) this.entries.delete(key);
  }

  async zrevrange(key: string, start: number, stop: number): Promise<string[]> {
    const ranked = this.zset(key)?.ranked ?? [];
    const size = ranked.length;
    const from = Math.max(0, start < 0 ? size + start : start);
    const to = Math.min(size - 1, stop < 0 ? size + stop : stop);
    const members: string[] = [];
    for (let i = from; i <= to; i++) members.push(ranked[size - 1 - i].member);
    return members;
  }

  async zcard(key: string): Promise<number> {
    return this.zset(key)?.ranked.length ?? 0;
  }

  async ztrim(key: string, maxSize: number): Promise<void> {
    const set = this.zset(key);
    if (!set) return;
    const dropped = set.ranked.splice(0, Math.max(0, set.ranked.length - Math.max(0, maxSize)));
    for (const { member } of dropped) set.scores.delete(member);
    if (set.ranked.length === 0) this.entries.delete(key);
  }

  /** Nothing to open: the engine lives in this process. */
  async connect(): Promise<void> {}

  async isHealthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.closed = true;
  }

  private put(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    if (++this.writes % SWEEP_EVERY_WRITES === 0) for (const k of [...this.entries.keys()]) this.live(k);
  }

  /** The entry unless it has expired (then it is dropped). */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.kind === 'string' && entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private text(key: string): Extract<Entry, { kind: 'string' }> | undefined {
    const entry = this.live(key);
    if (entry && entry.kind !== 'string') throw wrongType(key);
    return entry;
  }

  private zset(key: string): ZSet | undefined {
    const entry = this.live(key);
    if (entry && entry.kind !== 'zset') throw wrongType(key);
    return entry;
  }

  private unrank(set: ZSet, member: string): void {
    const score = set.scores.get(member);
    if (score === undefined) return;
    set.ranked.splice(lowerBound(set.ranked, { score, member }), 1);
    set.scores.delete(member);
  }
}
