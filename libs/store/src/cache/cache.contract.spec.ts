// One contract for both cache engines (ARCHITECTURE §3): memory, and Redis on a
// redis-server this suite starts on a free port of its own.
import { RedisServerHandle, redisServerAvailable, startRedisServer } from '@app/testing/engines';
import { Cache } from './cache.port';
import { createCache } from './cache.factory';

interface Engine {
  name: 'memory' | 'redis';
  start(): Promise<void>;
  make(keyPrefix: string): Cache;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function redisEngine(): Engine {
  let server: RedisServerHandle | undefined;
  return {
    name: 'redis',
    async start() {
      server = await startRedisServer();
    },
    make: (keyPrefix) => createCache({ redisUrl: server?.url, keyPrefix }),
    async stop() {
      await server?.stop();
    },
  };
}

function engines(): Engine[] {
  const list: Engine[] = [
    { name: 'memory', start: async () => {}, make: (keyPrefix) => createCache({ keyPrefix }), stop: async () => {} },
  ];
  if (redisServerAvailable()) list.push(redisEngine());
  else if (process.env.CI === 'true') throw new Error('redis-server is missing: CI must run the cache contract on Redis');
  else console.info('redis-server is not installed: the cache contract runs in memory only.');
  return list;
}

describe.each(engines())('Cache contract: $name', (engine) => {
  const opened: Cache[] = [];
  let cache: Cache;
  let n = 0;
  /** A key of its own for each use, so cases never see each other's data. */
  const key = (name: string) => `${name}:${++n}`;
  const make = (keyPrefix: string) => {
    const made = engine.make(keyPrefix);
    opened.push(made);
    return made;
  };

  beforeAll(async () => {
    await engine.start();
    cache = make('test:');
  }, 10_000);

  afterAll(async () => {
    for (const c of opened) await c.close();
    await engine.stop();
  });

  it('is the engine the factory was asked for, and healthy', async () => {
    expect(cache.engine).toBe(engine.name);
    expect(await cache.isHealthy()).toBe(true);
  });

  describe('values', () => {
    it('get, set, del and exists', async () => {
      const k = key('value');
      expect(await cache.get(k)).toBeNull();
      expect(await cache.exists(k)).toBe(false);
      await cache.set(k, 'one');
      await cache.set(k, 'two');
      expect(await cache.get(k)).toBe('two');
      expect(await cache.exists(k)).toBe(true);
      await cache.del(k);
      await cache.del(k);
      expect(await cache.get(k)).toBeNull();
      expect(await cache.exists(k)).toBe(false);
    });

    it('expires a value after its TTL; a set without TTL clears it', async () => {
      const [short, kept] = [key('ttl'), key('ttl')];
      await cache.set(short, 'v', 0.1);
      await cache.set(kept, 'v', 0.1);
      await cache.set(kept, 'w');
      expect(await cache.get(short)).toBe('v');
      await sleep(150);
      expect(await cache.get(short)).toBeNull();
      expect(await cache.exists(short)).toBe(false);
      expect(await cache.get(kept)).toBe('w');
    });

    it('refuses a TTL that is not positive', async () => {
      await expect(cache.set(key('ttl'), 'v', 0)).rejects.toThrow(RangeError);
      await expect(cache.incr(key('ttl'), -1)).rejects.toThrow(RangeError);
    });
  });

  describe('counters', () => {
    it('incr counts from 1 and stays exact under concurrency', async () => {
      const k = key('count');
      expect(await cache.incr(k, 60)).toBe(1);
      expect(await cache.incr(k, 60)).toBe(2);
      const counts = await Promise.all(Array.from({ length: 50 }, () => cache.incr(k, 60)));
      expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 3));
      expect(await cache.get(k)).toBe('52');
    });

    it('sets the TTL on the first hit only, so a window closes on time', async () => {
      const k = key('window');
      expect(await cache.incr(k, 0.3)).toBe(1);
      await sleep(200);
      expect(await cache.incr(k, 0.3)).toBe(2);
      await sleep(200);
      expect(await cache.incr(k, 0.3)).toBe(1);
    });

    it('refuses to count a value that is not an integer', async () => {
      const k = key('text');
      await cache.set(k, 'abc');
      await expect(cache.incr(k, 60)).rejects.toThrow();
    });
  });

  describe('sorted sets', () => {
    it('zrevrange returns members highest score first, by inclusive and negative ranks', async () => {
      const k = key('timeline');
      await cache.zaddMany(k, [
        { score: 3, member: 'c' },
        { score: 1, member: 'a' },
        { score: 5, member: 'e' },
      ]);
      await cache.zadd(k, 4, 'd');
      await cache.zadd(k, 2, 'b');
      expect(await cache.zrevrange(k, 0, -1)).toEqual(['e', 'd', 'c', 'b', 'a']);
      expect(await cache.zrevrange(k, 1, 2)).toEqual(['d', 'c']);
      expect(await cache.zrevrange(k, -2, -1)).toEqual(['b', 'a']);
      expect(await cache.zrevrange(k, 3, 100)).toEqual(['b', 'a']);
      expect(await cache.zrevrange(k, 5, 9)).toEqual([]);
      expect(await cache.zcard(k)).toBe(5);
    });

    it('moves a member added again, and orders equal scores by member, descending', async () => {
      const k = key('timeline');
      await cache.zaddMany(k, [
        { score: 1, member: 'a' },
        { score: 1, member: 'b' },
        { score: 2, member: 'c' },
      ]);
      expect(await cache.zrevrange(k, 0, -1)).toEqual(['c', 'b', 'a']);
      await cache.zadd(k, 0, 'c');
      expect(await cache.zrevrange(k, 0, -1)).toEqual(['b', 'a', 'c']);
      expect(await cache.zcard(k)).toBe(3);
      await cache.zaddMany(k, []);
      expect(await cache.zcard(k)).toBe(3);
    });

    it('zrem removes a member; an emptied set no longer exists', async () => {
      const k = key('timeline');
      await cache.zaddMany(k, [
        { score: 1, member: 'a' },
        { score: 2, member: 'b' },
      ]);
      await cache.zrem(k, 'a');
      await cache.zrem(k, 'missing');
      expect(await cache.zrevrange(k, 0, -1)).toEqual(['b']);
      await cache.zrem(k, 'b');
      expect(await cache.exists(k)).toBe(false);
      expect(await cache.zcard(k)).toBe(0);
      expect(await cache.zrevrange(k, 0, -1)).toEqual([]);
    });

    it('ztrim keeps the highest members', async () => {
      const k = key('timeline');
      await Promise.all(Array.from({ length: 1000 }, (_, i) => cache.zadd(k, i, `r${i}`)));
      await cache.ztrim(k, 800);
      expect(await cache.zcard(k)).toBe(800);
      expect(await cache.zrevrange(k, 0, 1)).toEqual(['r999', 'r998']);
      expect(await cache.zrevrange(k, -1, -1)).toEqual(['r200']);
      await cache.ztrim(k, 900);
      expect(await cache.zcard(k)).toBe(800);
      await cache.ztrim(k, 0);
      expect(await cache.exists(k)).toBe(false);
    });

    it('refuses to mix a value and a sorted set under one key', async () => {
      const [text, zset] = [key('text'), key('zset')];
      await cache.set(text, 'v');
      await cache.zadd(zset, 1, 'a');
      await expect(cache.zadd(text, 1, 'a')).rejects.toThrow(/WRONGTYPE/);
      await expect(cache.get(zset)).rejects.toThrow(/WRONGTYPE/);
    });
  });

  it('keeps caches with different key prefixes apart', async () => {
    const [a, b] = [make('a:'), make('b:')];
    const k = key('shared');
    await a.set(k, 'from a');
    await a.incr(`${k}:n`, 60);
    await a.zadd(`${k}:z`, 1, 'm');
    expect(await b.get(k)).toBeNull();
    expect(await b.incr(`${k}:n`, 60)).toBe(1);
    expect(await b.zcard(`${k}:z`)).toBe(0);
    expect(await a.get(k)).toBe('from a');
  });

  it('is no longer healthy once closed', async () => {
    const other = make('closing:');
    await other.set(key('x'), 'v');
    await other.close();
    expect(await other.isHealthy()).toBe(false);
  });
});

