import { UserCard } from '../users/user-card';

/** A message as the chat pane shows it (spec part 2 §3), also the `message.sent` payload's view. */
export interface MessageView {
  id: string;
  conversation_id: string;
  sender_id: string;
  sender: UserCard;
  /** Blank once deleted (`deleted`): the tombstone keeps its place in the chat. */
  content: string;
  created_at: string;
  edited_at: string | null;
  deleted: boolean;
  /** In order of first use; `me` is whether the viewer reacted with that emoji. */
  reactions: ReactionView[];
  /** Uploaded images (/api/media/{id}), in the order sent; emptied with the text on delete. */
  attachments: MessageAttachmentView[];
}

export interface MessageAttachmentView {
  url: string;
  alt: string | null;
}

export interface ReactionView {
  emoji: string;
  count: number;
  me: boolean;
}

export interface LastMessageView {
  id: string;
  content: string;
  sender: UserCard;
  created_at: string;
  /** The last message was deleted: the list shows "message deleted" instead of its (blank) content. */
  deleted: boolean;
  /** How many images it carries (an image-only message has blank content). */
  images: number;
}

/** One row of the conversation list (spec part 2 §3), plus `unread_count` for the viewer. */
export interface ConversationView {
  id: string;
  /** Squad name for a squad chat; null otherwise (the client names groups from members). */
  name: string | null;
  is_group: boolean;
  squad_id: string | null;
  other_members: UserCard[];
  members: UserCard[];
  last_message: LastMessageView | null;
  created_at: string;
  updated_at: string;
  unread_count: number;
  /**
   * One-to-one only: when the other member last read it (the sender's "Seen"); null in groups
   * and squad chats, which show no receipts (docs/decisions/messaging.md).
   */
  other_read_at: string | null;
}

export interface ReadMarkerView {
  conversation_id: string;
  unread_count: number;
  last_read_at: string;
}
