import mongoose, { Connection } from 'mongoose';
import { MediaStorage } from './media-storage';

const BUCKET = 'media';

/**
 * Uploads in MongoDB GridFS (the MongoDB profile), one file per media id, in the service's
 * own database. The connection opens on first use and fails fast when MongoDB is unreachable.
 */
export class GridFsMediaStorage implements MediaStorage {
  private connection?: Promise<Connection>;

  constructor(
    private readonly url: string,
    private readonly dbName: string,
  ) {}

  async put(id: string, bytes: Buffer): Promise<void> {
    const bucket = await this.bucket();
    await new Promise<void>((resolve, reject) => {
      const upload = bucket.openUploadStreamWithId(id as never, id);
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(bytes);
    });
  }

  async get(id: string): Promise<Buffer | null> {
    const bucket = await this.bucket();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of bucket.openDownloadStream(id as never)) chunks.push(chunk as Buffer);
    } catch (err) {
      if (/FileNotFound/i.test((err as Error).message) || (err as { code?: string }).code === 'ENOENT') return null;
      throw err;
    }
    return Buffer.concat(chunks);
  }

  async remove(id: string): Promise<void> {
    const bucket = await this.bucket();
    try {
      await bucket.delete(id as never);
    } catch (err) {
      if (!/FileNotFound/i.test((err as Error).message)) throw err;
    }
  }

  async close(): Promise<void> {
    if (this.connection) await (await this.connection).close();
  }

  private async bucket(): Promise<mongoose.mongo.GridFSBucket> {
    this.connection ??= mongoose
      .createConnection(this.url, { dbName: this.dbName, serverSelectionTimeoutMS: 5000 })
      .asPromise();
    const db = (await this.connection).db;
    if (!db) throw new Error('MongoDB connection has no database');
    return new mongoose.mongo.GridFSBucket(db, { bucketName: BUCKET });
  }
}
