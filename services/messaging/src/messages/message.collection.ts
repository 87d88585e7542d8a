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
}

export const messagesCollection = defineCollection<MessageDoc>('messages', [
  { fields: { conversation_id: 1 }, orderBy: { created_at: -1 } },
]);
