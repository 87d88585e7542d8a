// Runs without Redis: a gateway given a REDIS_URL nothing answers on must stop at boot within
// seconds, naming the setting, instead of hanging until the launcher's ready time-out.
import { createServer } from 'node:net';
import { REDIS_CONNECT_TIMEOUT_MS } from '@app/store';
import { createGatewayApp, loadGatewayConfig } from './gateway.app';
import { RateLimitStore } from './rate-limit/rate-limit-store';

/** A local port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const env = {
  NODE_ENV: 'test',
  JWT_SECRET: 'gateway-redis-boot-secret-of-32-chars!!',
  LOG_LEVEL: 'silent',
  PORT: '0',
  HOST: '127.0.0.1',
};

describe('the gateway with an unreachable REDIS_URL', () => {
  it('refuses to start within seconds, naming the URL and REDIS_URL (socket.io Redis adapter)', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const config = loadGatewayConfig({ ...env, BUS: 'redis', REDIS_URL: url, RATE_LIMITS: 'on' });
    const started = Date.now();
    await expect(createGatewayApp(config, {})).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
  });

  it('refuses to initialise the rate-limit store the same way', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const store = new RateLimitStore(loadGatewayConfig({ ...env, REDIS_URL: url, RATE_LIMITS: 'on' }));
    const started = Date.now();
    await expect(store.onModuleInit()).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    await store.onApplicationShutdown();
  });

  it('keeps the rate limits in memory, with no connection, when REDIS_URL is unset or limits are off', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    expect(new RateLimitStore(loadGatewayConfig({ ...env, RATE_LIMITS: 'on' })).redis).toBeUndefined();
    const off = new RateLimitStore(loadGatewayConfig({ ...env, REDIS_URL: url, RATE_LIMITS: 'off' }));
    expect(off.redis).toBeUndefined();
    await expect(off.onModuleInit()).resolves.toBeUndefined();
  });
});
