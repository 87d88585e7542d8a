import { defineCollection } from '@app/store';
import { ImageMime } from './media-type';

/** What is known of an upload; the bytes live in MediaStorage. */
export interface MediaDoc {
  _id: string;
  mime: ImageMime;
  size: number;
  /** Strong validator for conditional GETs: a hash of the bytes. */
  etag: string;
  owner_id: string;
  created_at: string;
}

export const mediaCollection = defineCollection<MediaDoc>('media', [{ fields: { owner_id: 1 } }]);
