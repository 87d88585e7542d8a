// Runs without Redis: BUS=redis with a REDIS_URL nothing answers on must stop boot within
// seconds and name the setting (the outage after boot is in infra/test/system/faults).
import { createServer } from 'node:net';
import { REDIS_CONNECT_TIMEOUT_MS } from '@app/store';
import { createTransport } from '../transport.factory';

/** A local port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('Redis Streams transport with an unreachable REDIS_URL', () => {
  it('connect() rejects within seconds, naming the URL and REDIS_URL', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const transport = createTransport({ engine: 'redis', redisUrl: url });
    const started = Date.now();
    await expect(transport.connect()).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    // Refused at once, not given up on after the connect time-out.
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    expect(await transport.isHealthy()).toBe(false);
    await transport.close();
  });
});
