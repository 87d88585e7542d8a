import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { DiskMediaStorage, InMemoryMediaStorage, MEDIA_STORAGE, MediaStorage } from './media-storage';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';

/** GridFS with MongoDB; disk under the service's data folder; memory when the data root is ':memory:' (tests). */
export function createMediaStorage(config: PlatformConfig): MediaStorage {
  if (config.STORE === 'mongo' && config.MONGO_URL) {
    // Loaded only for MongoDB: mongoose was over a second of every embedded boot.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GridFsMediaStorage } = require('./gridfs-media-storage') as typeof import('./gridfs-media-storage');
    return new GridFsMediaStorage(config.MONGO_URL, 'squadreviews_reviews');
  }
  if (config.DATA_DIR === ':memory:') return new InMemoryMediaStorage();
  return new DiskMediaStorage(join(config.DATA_DIR, 'reviews', 'media'));
}

@Module({
  controllers: [MediaController],
  providers: [
    MediaService,
    { provide: MEDIA_STORAGE, inject: [PLATFORM_CONFIG], useFactory: createMediaStorage },
  ],
  exports: [MediaService],
})
export class MediaModule {}
