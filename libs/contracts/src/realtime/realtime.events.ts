import { MessageView } from '../messaging/messaging.views';
import type { Role } from '../moderation/moderation.dto';
import { UserCard } from '../users/user-card';

/** Acknowledgement of a client socket event (spec part 2 §7). */
export type SocketAck<T = undefined> = { success: true; data?: T } | { success: false; message: string; code?: string };

/** An image of a `send-message`: an upload made first over HTTP (POST /api/media), named by its URL (`/api/media/{id}`). */
export interface SocketAttachment {
  url: string;
  alt?: string;
}

/** A `notification` push: the stored notification as the `notification.created` event carries it. */
export interface PushedNotification {
  id: string;
  type: string;
  message: string;
  is_read: boolean;
  created_at: string;
  related_user: UserCard | null;
}

/** Payload of each event the server sends, by name (the gateway's relay and typing indicators). */
export interface ServerToClientPayloads {
  'new-message': MessageView;
  /** An edit: the new text and when (the chat shows "edited"). */
  'message-updated': { conversationId: string; messageId: string; content: string; edited_at: string };
  /** A delete: the message becomes a "message deleted" tombstone. */
  'message-deleted': { conversationId: string; messageId: string };
  /**
   * A reaction added or removed by `userId`, with the counts after it. `me` is per viewer, so each
   * client keeps its own flags and changes one only when `userId` is itself.
   */
  'message-reactions': {
    conversationId: string;
    messageId: string;
    userId: string;
    emoji: string;
    added: boolean;
    reactions: { emoji: string; count: number }[];
  };
  'user-typing': { conversationId: string; userId: string; username: string };
  'user-stopped-typing': { conversationId: string; userId: string };
  notification: PushedNotification;
  /**
   * A member read the conversation: to that member's own tabs always (their unread count is 0), and
   * in a one-to-one to the other member too (their "Seen").
   */
  'conversation-read': { conversationId: string; userId: string; readAt: string };
  /** An admin changed the member's site role: their tabs show it at once (every service already applies it). */
  'role-changed': { role: Role };
  /**
   * Something of a squad changed for this member: a join request (to its managers and the requester), its
   * decision, a membership, a squad role. Only the squad's id travels: the page reads its data again with
   * the member's own rights, so a push shows nothing the member may not read.
   */
  'squad-changed': { squadId: string };
  /** The open moderation queue changed (a report filed, dismissed or settled by a hide): to moderators and admins. */
  'moderation-queue': Record<string, never>;
}

/** Server-to-client events as socket.io types them (`Server<ClientToServerEvents, ServerToClientEvents>`). */
export type ServerToClientEvents = {
  [E in keyof ServerToClientPayloads]: (payload: ServerToClientPayloads[E]) => void;
};

/** Join and leave events take the id itself or `{ [key]: id }` (the spec leaves their payload open). */
export type IdPayload<K extends string> = string | Record<K, string>;

/**
 * Events a client sends, with their payloads and acknowledgements (spec part 2 §7). Typing events
 * have no ack, and the typer's id and name come from the token, never from the payload.
 */
export interface ClientToServerEvents {
  'join-user-room': (payload: IdPayload<'userId'>, ack?: (reply: SocketAck) => void) => void;
  'join-conversation': (payload: IdPayload<'conversationId'>, ack?: (reply: SocketAck) => void) => void;
  'leave-conversation': (payload: IdPayload<'conversationId'>, ack?: (reply: SocketAck) => void) => void;
  /** Text, images or both (issue 31 §4): the chat pane sends every message this one way. */
  'send-message': (
    payload: { conversationId: string; content: string; attachments?: SocketAttachment[] },
    ack?: (reply: SocketAck<MessageView>) => void,
  ) => void;
  'typing-start': (payload: { conversationId: string }) => void;
  'typing-stop': (payload: { conversationId: string }) => void;
}
