// Runs without Redis: the feed cache is the reviews service's own use of REDIS_URL (whatever
// the bus), so an unreachable one must stop boot within seconds and name the setting.
import { createServer } from 'node:net';
import { MemoryTransport } from '@app/bus';
import { buildService } from '@app/platform';
import { SqliteStore, REDIS_CONNECT_TIMEOUT_MS } from '@app/store';
import { testConfig } from '@app/testing';
import { reviewsService } from '../reviews.service-definition';

/** A local port nothing listens on: bound, noted, closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the reviews service with an unreachable REDIS_URL (feed cache, in-memory bus)', () => {
  it('refuses to start within seconds, naming the URL and REDIS_URL', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const transport = new MemoryTransport();
    const started = Date.now();
    await expect(
      buildService(reviewsService, { config: testConfig({ REDIS_URL: url }), store: new SqliteStore(), transport }),
    ).rejects.toThrow(`Redis at ${url} is unreachable (REDIS_URL): connect ECONNREFUSED`);
    expect(Date.now() - started).toBeLessThan(REDIS_CONNECT_TIMEOUT_MS);
    await transport.close();
  });
});
