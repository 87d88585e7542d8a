import type Redis from 'ioredis';

/** How long boot waits for Redis before giving up: long enough for a slow network, short of any probe time-out. */
export const REDIS_CONNECT_TIMEOUT_MS = 5_000;

export interface ConnectRedisOptions {
  /** The setting the URL came from, named in the error so the operator knows what to fix. */
  setting?: string;
  /** Boot gives up after this long (default REDIS_CONNECT_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Boot could not reach Redis; the message names the URL (password hidden) and the setting. */
export class RedisUnreachableError extends Error {
  constructor(url: string, setting: string, reason: string) {
    super(`Redis at ${redactRedisUrl(url)} is unreachable (${setting}): ${reason}`);
    this.name = 'RedisUnreachableError';
  }
}

/**
 * The first connection of a client made with `lazyConnect: true`, for boot: resolves once
 * Redis answers, rejects with a RedisUnreachableError within `timeoutMs` otherwise (refused,
 * unknown host, no route, or a listener that never answers, which ioredis alone waits on
 * forever) and drops the client, so nothing keeps retrying behind a failed boot.
 *
 * Once connected, the client's own reconnect strategy is left as it is: a Redis that goes
 * away after boot is waited for, not fatal.
 */
export async function connectRedis(client: Redis, url: string, options: ConnectRedisOptions = {}): Promise<void> {
  const setting = options.setting ?? 'REDIS_URL';
  const timeoutMs = options.timeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
  // connect() itself only says "Connection is closed."; the error event says why.
  let cause: string | undefined;
  const onError = (err: unknown) => (cause ??= describe(err));
  client.on('error', onError);
  // At boot a failed attempt is final (the client ends instead of scheduling a reconnect);
  // the client's own retry strategy is back in force once it has connected.
  const retryStrategy = client.options.retryStrategy;
  client.options.retryStrategy = () => null;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.connect(), timedOut]);
  } catch (err) {
    // Ends a connection still waiting for an answer (the time-out case); a refused one has ended already.
    if (client.status !== 'end') client.disconnect();
    throw new RedisUnreachableError(url, setting, cause ?? describe(err));
  } finally {
    clearTimeout(timer);
    client.options.retryStrategy = retryStrategy;
    client.off('error', onError);
  }
}

/** The URL without its password, for logs and errors. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'the configured URL';
  }
}

/** The message alone; not `instanceof Error`, which fails for errors made in another realm (node's net under jest). */
function describe(err: unknown): string {
  const text = (err as { message?: unknown } | null)?.message;
  return typeof text === 'string' && text ? text : String(err);
}
