import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { MEDIA_URL_PREFIX } from '@app/contracts';
import { Collection, newId, STORE, Store } from '@app/store';
import { MEDIA_STORAGE, MediaStorage } from './media-storage';
import { MediaDoc, mediaCollection } from './media.collection';
import { sniffImageType } from './media-type';
import { ReviewsException } from '../reviews.errors';

export interface StoredMedia {
  doc: MediaDoc;
  bytes: Buffer;
}

@Injectable()
export class MediaService implements OnApplicationShutdown {
  private readonly media: Collection<MediaDoc>;

  constructor(
    @Inject(STORE) store: Store,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {
    this.media = store.collection(mediaCollection);
  }

  async upload(ownerId: string, bytes: Buffer | undefined): Promise<{ id: string; url: string }> {
    if (!bytes || bytes.length === 0) throw new ReviewsException('IMAGE_REQUIRED', 'An image file is required (form field "file")');
    const mime = sniffImageType(bytes);
    if (!mime) throw new ReviewsException('UNSUPPORTED_IMAGE_TYPE', 'Only PNG, JPEG or WEBP images are accepted');
    const id = newId();
    // Bytes first: metadata never points at a file that is not there.
    await this.storage.put(id, bytes);
    await this.media.insert({
      _id: id,
      mime,
      size: bytes.length,
      etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`,
      owner_id: ownerId,
      created_at: new Date().toISOString(),
    });
    return { id, url: `${MEDIA_URL_PREFIX}${id}` };
  }

  /** Every upload of a deleted member: the bytes first, then the row, so a rerun still finds what is left. Their ids. */
  async eraseOwnedBy(ownerId: string): Promise<string[]> {
    const docs = await this.media.find({ owner_id: ownerId }, { projection: { _id: 1 } });
    for (const doc of docs) {
      await this.storage.remove(doc._id);
      await this.media.deleteOne({ _id: doc._id });
    }
    return docs.map((doc) => doc._id);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.storage.close?.();
  }

  async head(id: string): Promise<MediaDoc> {
    const doc = await this.media.findById(id);
    if (!doc) throw new ReviewsException('MEDIA_NOT_FOUND', 'Media not found');
    return doc;
  }

  async read(doc: MediaDoc): Promise<Buffer> {
    const bytes = await this.storage.get(doc._id);
    if (!bytes) throw new ReviewsException('MEDIA_NOT_FOUND', 'Media not found');
    return bytes;
  }
}
