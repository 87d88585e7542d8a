import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where uploaded bytes live (port): disk in the embedded profile, memory in tests, GridFS with MongoDB. */
export interface MediaStorage {
  put(id: string, bytes: Buffer): Promise<void>;
  /** null when the bytes are gone. */
  get(id: string): Promise<Buffer | null>;
  /** Drops the bytes; an id already gone is not an error (erasure reruns it). */
  remove(id: string): Promise<void>;
  close?(): Promise<void>;
}

export const MEDIA_STORAGE = Symbol('MEDIA_STORAGE');

/** Ids are ours (newId: 24 hex); anything else never reaches the file system. */
const SAFE_ID = /^[a-f0-9]{24}$/;

export class InMemoryMediaStorage implements MediaStorage {
  private readonly files = new Map<string, Buffer>();

  async put(id: string, bytes: Buffer): Promise<void> {
    this.files.set(id, Buffer.from(bytes));
  }

  async get(id: string): Promise<Buffer | null> {
    return this.files.get(id) ?? null;
  }

  async remove(id: string): Promise<void> {
    this.files.delete(id);
  }
}

/** One file per upload under the service's data folder, written atomically (temp file, then rename). */
export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly dir: string) {}

  async put(id: string, bytes: Buffer): Promise<void> {
    if (!SAFE_ID.test(id)) throw new Error(`Unsafe media id ${id}`);
    await mkdir(this.dir, { recursive: true });
    const tmp = join(this.dir, `${id}.tmp`);
    await writeFile(tmp, bytes);
    await rename(tmp, join(this.dir, id));
  }

  async get(id: string): Promise<Buffer | null> {
    if (!SAFE_ID.test(id)) return null;
    try {
      return await readFile(join(this.dir, id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    if (!SAFE_ID.test(id)) return;
    await rm(join(this.dir, id), { force: true });
  }
}
