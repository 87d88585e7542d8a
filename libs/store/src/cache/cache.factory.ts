import { Cache } from './cache.port';
import { MemoryCache } from './memory-cache';
import { RedisCache } from './redis-cache';

export interface CacheSettings {
  /** Redis when set (distributed and production profiles), in memory otherwise (ARCHITECTURE §3). */
  redisUrl?: string;
  /** Prefix of every Redis key, for example `feed:`; the memory engine has no neighbours to avoid. */
  keyPrefix: string;
}

export function createCache(settings: CacheSettings): Cache {
  return settings.redisUrl ? new RedisCache({ url: settings.redisUrl, keyPrefix: settings.keyPrefix }) : new MemoryCache();
}
