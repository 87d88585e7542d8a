// Boot against a Redis that cannot be reached must fail within seconds and say which setting
// to fix (docs/OPERATIONS.md); a Redis that goes away after boot is reconnected to.
import Redis from 'ioredis';
import { createServer, Server, Socket } from 'node:net';
import { describeWithRedis, startRedisServer } from '@app/testing/engines';
import { RedisCache } from '../cache/redis-cache';
import { connectRedis, REDIS_CONNECT_TIMEOUT_MS, RedisUnreachableError } from './redis-connect';

/** A local port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Accepts connections and never answers: ioredis alone would wait on its ready check forever. */
async function silentListener(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function ended(client: Redis): Promise<void> {
  return client.status === 'end' ? Promise.resolve() : new Promise((resolve) => client.once('end', () => resolve()));
}

describe('connectRedis at boot', () => {
  let consoleError: jest.SpyInstance;
  beforeEach(() => (consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined)));
  afterEach(() => consoleError.mockRestore());

  it('rejects within seconds on a closed port, naming the URL, REDIS_URL and the cause, and stops retrying', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const client = new Redis(url, { lazyConnect: true });
    const started = Date.now();
    const error = await connectRedis(client, url).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RedisUnreachableError);
    expect((error as Error).message).toBe(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED ${url.slice('redis://'.length)}`);
    // Refused, not timed out; dropped, not reconnecting in the background; and ioredis printed no "Unhandled error event".
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    expect(client.status).toBe('end');
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('gives up on a listener that never answers after the time-out, and hides the password', async () => {
    const silent = await silentListener();
    try {
      const url = `redis://:s3cret@127.0.0.1:${silent.port}`;
      // A short grace period for the socket ioredis ends, so the test leaves no timer behind.
      const client = new Redis(url, { lazyConnect: true, disconnectTimeout: 50 });
      const started = Date.now();
      const error = await connectRedis(client, url, { timeoutMs: 300, setting: 'CACHE_URL' }).catch((err: unknown) => err);
      expect((error as Error).message).toBe(`Redis at redis://:***@127.0.0.1:${silent.port} is unreachable (CACHE_URL): no answer within 300 ms`);
      expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
      await ended(client);
    } finally {
      await silent.close();
    }
  });

  it('RedisCache.connect() rejects the same way, and the cache reports itself unhealthy', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const cache = new RedisCache({ url, keyPrefix: 'test:' });
    const started = Date.now();
    await expect(cache.connect()).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    expect(await cache.isHealthy()).toBe(false);
    await cache.close();
  });
});

describeWithRedis('redis-connect.spec')('a Redis that goes away after boot', () => {
  it('is reconnected to: the cache fails commands meanwhile and works again once Redis is back', async () => {
    let redis = await startRedisServer();
    const cache = new RedisCache({ url: redis.url, keyPrefix: 'outage:' });
    try {
      await cache.connect();
      await cache.set('k', 'before');
      const port = Number(new URL(redis.url).port);
      await redis.stop();
      await expect(cache.get('k')).rejects.toThrow();
      redis = await startRedisServer({ port });
      const deadline = Date.now() + 10_000;
      while (!(await cache.isHealthy())) {
        if (Date.now() > deadline) throw new Error('the cache did not reconnect');
        await new Promise((r) => setTimeout(r, 100));
      }
      await cache.set('k', 'after');
      expect(await cache.get('k')).toBe('after');
    } finally {
      await cache.close();
      await redis.stop();
    }
  });
});
