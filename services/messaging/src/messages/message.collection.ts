import { defineCollection } from '@app/store';

export interface MessageDoc {
  _id: string;
  conversation_id: string;
  sender_id: string;
  content: string;
  created_at: string;
}

export const messagesCollection = defineCollection<MessageDoc>('messages', [
  { fields: { conversation_id: 1 }, orderBy: { created_at: -1 } },
]);
