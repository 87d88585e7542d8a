import { defineCollection } from '@app/store';

/** One member's one emoji on one message; `_id` is `messageId:userId:emoji`, so adding twice is one row. */
export interface ReactionDoc {
  _id: string;
  message_id: string;
  conversation_id: string;
  user_id: string;
  emoji: string;
  created_at: string;
}

export const reactionsCollection = defineCollection<ReactionDoc>('message_reactions', [
  { fields: { message_id: 1 }, orderBy: { created_at: 1 } },
  { fields: { conversation_id: 1 } },
]);

export function reactionId(messageId: string, userId: string, emoji: string): string {
  return `${messageId}:${userId}:${emoji}`;
}
