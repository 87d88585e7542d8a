// Runs without MongoDB: ARCHITECTURE §2 wants STORE=mongo with no server to fail fast and say why.
import { createServer } from 'node:net';
import { StoreUnavailableError } from '../store.errors';
import { MongoStore } from './mongo-store';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('MongoStore without a server', () => {
  it('open() fails fast with a StoreUnavailableError naming the URL, not the password', async () => {
    const url = `mongodb://app:s3cret@127.0.0.1:${await closedPort()}`;
    const store = new MongoStore({ url, dbName: 'nowhere', serverSelectionTimeoutMS: 300 });
    const started = Date.now();
    const error = await store.open([]).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toContain(url.replace('s3cret', '***'));
    expect((error as Error).message).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await store.isHealthy()).toBe(false);
    await store.close();
  });

  it('open() refuses a malformed URL the same way', async () => {
    const store = new MongoStore({ url: 'not-a-mongo-url', dbName: 'x' });
    await expect(store.open([])).rejects.toThrow(StoreUnavailableError);
  });
});
