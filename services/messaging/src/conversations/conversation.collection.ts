import { defineCollection } from '@app/store';

export interface LastMessageDoc {
  id: string;
  content: string;
  sender_id: string;
  created_at: string;
  /** The message was deleted after it became the last one: the preview reads "message deleted". */
  deleted?: boolean;
  /** Images it carries; absent on rows stored before attachments (none). */
  images?: number;
}

export interface ConversationDoc {
  _id: string;
  /** Source of truth for membership. */
  member_ids: string[];
  is_group: boolean;
  name: string | null;
  /** Sorted member ids of a one-to-one conversation ("a:b"); absent on groups (sparse unique index). */
  pair_key?: string;
  /** Set on a squad's chat only (sparse unique index): one conversation per squad. */
  squad_id?: string;
  /**
   * Squad chats: as of when `name` is the squad's name (the squad's updated_at for a rename,
   * the event's time for squad.created and member_joined). An older name arriving late is ignored.
   */
  name_at?: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_message: LastMessageDoc | null;
}

export const conversationsCollection = defineCollection<ConversationDoc>('conversations', [
  { fields: { member_ids: 1 } },
  { fields: { updated_at: -1 } },
  { fields: { pair_key: 1 }, unique: true, sparse: true },
  { fields: { squad_id: 1 }, unique: true, sparse: true },
]);

/** Per-member state of a conversation; `_id` is `conversationId:userId`. */
export interface MemberStateDoc {
  _id: string;
  conversation_id: string;
  user_id: string;
  /** Messages from others since the last read marker; set to 0 on read, never below. */
  unread_count: number;
  last_read_at: string | null;
  joined_at: string;
}

export const memberStatesCollection = defineCollection<MemberStateDoc>('conversation_members', [
  { fields: { user_id: 1 } },
  { fields: { conversation_id: 1 } },
]);

export function memberStateId(conversationId: string, userId: string): string {
  return `${conversationId}:${userId}`;
}
