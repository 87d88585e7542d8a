import { PlatformConfig } from '@app/platform';
import { Cache, createCache } from '@app/store';

export const FEED_CACHE = Symbol('FEED_CACHE');
export const FEED_SETTINGS = Symbol('FEED_SETTINGS');

export interface FeedSettings {
  /** Entries kept per timeline (ARCHITECTURE §7, as Mastodon's home feed). */
  timelineCap: number;
  /** Authors with at least this many followers are merged at read time instead of fanned out. */
  fanoutMaxFollowers: number;
}

function positiveInt(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return n;
}

export function feedSettings(env: Record<string, string | undefined> = process.env): FeedSettings {
  return {
    timelineCap: positiveInt(env.FEED_TIMELINE_CAP, 800, 'FEED_TIMELINE_CAP'),
    fanoutMaxFollowers: positiveInt(env.FEED_FANOUT_MAX_FOLLOWERS, 10_000, 'FEED_FANOUT_MAX_FOLLOWERS'),
  };
}

/** Redis when REDIS_URL is set, memory otherwise; a missing timeline is rebuilt from the store. */
export function feedCache(config: PlatformConfig): Cache {
  return createCache({ redisUrl: config.REDIS_URL, keyPrefix: 'reviews:' });
}
