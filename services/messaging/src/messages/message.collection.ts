import { defineCollection } from '@app/store';

export interface MessageDoc {
  _id: string;
  conversation_id: string;
  sender_id: string;
  content: string;
  created_at: string;
  edited_at?: string;
  /** Set on delete; `content` is blanked at the same time, the row stays as a tombstone. */
  deleted_at?: string;
  /** Uploaded images (/api/media/{id}); emptied on delete. Absent on rows stored before attachments. */
  attachments?: { url: string; alt: string | null }[];
  /** Squad chat: the members this message has notified of a mention, so an edit notifies only the new ones. */
  mentioned_ids?: string[];
}

export const messagesCollection = defineCollection<MessageDoc>('messages', [
  { fields: { conversation_id: 1 }, orderBy: { created_at: -1 } },
]);
