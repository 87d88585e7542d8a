import Redis from 'ioredis';
import { connectRedis } from '../redis/redis-connect';
import { Cache, ScoredMember, ttlToMs } from './cache.port';

export interface RedisCacheOptions {
  url: string;
  /** Put before every key, so services sharing one Redis never collide (for example `feed:`). */
  keyPrefix: string;
}

// INCR then PEXPIRE as one atomic step: a window's TTL is set exactly once, by its first hit.
const INCR_WITH_TTL = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** The shared engine of the distributed and production profiles (ioredis). */
export class RedisCache implements Cache {
  readonly engine = 'redis' as const;
  private readonly redis: Redis;

  constructor(private readonly options: RedisCacheOptions) {
    // A few retries, then the command fails: a cache that is down must not stall requests for long.
    // Lazy: connect() makes the first connection at boot (a command before it connects on demand).
    this.redis = new Redis(options.url, { keyPrefix: options.keyPrefix, maxRetriesPerRequest: 3, lazyConnect: true });
    // Failures reach callers as rejected commands; without a listener ioredis would also print each one.
    this.redis.on('error', () => undefined);
  }

  /** Fails within seconds, naming REDIS_URL, when Redis cannot be reached; later outages are retried. */
  async connect(): Promise<void> {
    if (this.redis.status !== 'wait') return;
    await connectRedis(this.redis, this.options.url);
  }

  get(key: string): Promise<string | null> {
    return this.redis.get(key);
  }

  async set(key: string, value: string, ttlSeconds?: number): Promise<void> {
    if (ttlSeconds === undefined) await this.redis.set(key, value);
    else await this.redis.set(key, value, 'PX', ttlToMs(ttlSeconds));
  }

  async del(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async incr(key: string, ttlSeconds: number): Promise<number> {
    // ioredis applies keyPrefix to the KEYS of eval too.
    const count = await this.redis.eval(INCR_WITH_TTL, 1, key, ttlToMs(ttlSeconds));
    if (typeof count !== 'number') throw new Error(`INCR of ${key} answered ${String(count)}`);
    return count;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.redis.exists(key)) > 0;
  }

  async zadd(key: string, score: number, member: string): Promise<void> {
    await this.redis.zadd(key, score, member);
  }

  async zaddMany(key: string, entries: readonly ScoredMember[]): Promise<void> {
    if (entries.length === 0) return;
    await this.redis.zadd(key, ...entries.flatMap(({ score, member }) => [score, member]));
  }

  async zrem(key: string, member: string): Promise<void> {
    await this.redis.zrem(key, member);
  }

  zrevrange(key: string, start: number, stop: number): Promise<string[]> {
    return this.redis.zrevrange(key, start, stop);
  }

  zcard(key: string): Promise<number> {
    return this.redis.zcard(key);
  }

  async ztrim(key: string, maxSize: number): Promise<void> {
    // Ranks are ascending: drop everything below the maxSize highest (all of it when maxSize is 0).
    await this.redis.zremrangebyrank(key, 0, -Math.max(0, maxSize) - 1);
  }

  /** A PING answered within a second (it waits for a connection still being made). */
  async isHealthy(): Promise<boolean> {
    if (this.redis.status === 'end') return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
    const pong = this.redis.ping().then((reply) => reply === 'PONG', () => false);
    try {
      return await Promise.race([pong, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    // QUIT only on a live connection: otherwise it would wait in the offline queue for a reconnect.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
