import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '@app/store';
import { DiskMediaStorage, InMemoryMediaStorage, MediaStorage } from './media-storage';

describe.each([
  ['memory', async () => ({ storage: new InMemoryMediaStorage() as MediaStorage, dir: '' })],
  [
    'disk',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'media-'));
      return { storage: new DiskMediaStorage(join(dir, 'media')) as MediaStorage, dir };
    },
  ],
])('MediaStorage (%s)', (_name, make) => {
  let storage: MediaStorage;
  let dir: string;

  beforeEach(async () => {
    ({ storage, dir } = await make());
  });

  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives back exactly the bytes it was given', async () => {
    const id = newId();
    const bytes = Buffer.from([1, 2, 3, 255]);
    await storage.put(id, bytes);
    expect(await storage.get(id)).toEqual(bytes);
  });

  it('answers null for unknown ids and never touches paths outside its folder', async () => {
    expect(await storage.get(newId())).toBeNull();
    expect(await storage.get('../../etc/passwd')).toBeNull();
  });

  it('removes bytes, and removing them again or an unsafe id is no error', async () => {
    const id = newId();
    await storage.put(id, Buffer.from('x'));
    await storage.remove(id);
    await storage.remove(id);
    await storage.remove('../../etc/passwd');
    expect(await storage.get(id)).toBeNull();
  });

  if (_name === 'disk') {
    it('leaves no temp file behind', async () => {
      const id = newId();
      await storage.put(id, Buffer.from('x'));
      expect(await readdir(join(dir, 'media'))).toEqual([id]);
    });
  }
});
