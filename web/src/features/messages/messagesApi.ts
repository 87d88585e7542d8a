import { api, data, listOf } from '../../core/api';
import type { ConversationView, LastMessageView, MessageAttachmentDto, MessageView, ServerToClientPayloads } from '@app/contracts';
import type { AppDispatch, RootState } from '../../core/store';
import type { AppSocket } from '../../core/socket';

/** The spec's socket timeout (part 2 §7): an ack not back by then is a failed send. */
const SEND_TIMEOUT_MS = 20_000;

/**
 * Sends a message, text and images alike, over the socket (`send-message`, issue 31 §4) and
 * answers as the HTTP mutation does: `{ data }`, or `{ error }` shaped like an API error so
 * errorCode and errorMessage read it. While the socket reconnects the emit is buffered.
 */
export async function sendOverSocket(
  socket: AppSocket,
  payload: { conversationId: string; content: string; attachments?: MessageAttachmentDto[] },
): Promise<{ data: MessageView } | { error: { data: { message: string; code?: string } } }> {
  try {
    const ack = await socket.timeout(SEND_TIMEOUT_MS).emitWithAck('send-message', payload);
    if (ack.success && ack.data) return { data: ack.data };
    return { error: { data: ack.success ? { message: 'Failed to send message' } : { message: ack.message, code: ack.code } } };
  } catch {
    return { error: { data: { message: 'Failed to send message' } } };
  }
}

export const messagesApi = api.injectEndpoints({
  endpoints: (b) => ({
    conversations: b.query<ConversationView[], void>({
      query: () => '/messages/conversations',
      transformResponse: (r: unknown) => sortConversations(listOf<ConversationView>(r).items),
      providesTags: ['Conversation'],
    }),
    messages: b.query<MessageView[], string>({
      query: (id) => ({ url: `/messages/conversations/${id}/messages`, params: { page: 1, limit: 50 } }),
      transformResponse: (r: unknown) =>
        [...listOf<MessageView>(r).items].sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime()),
      providesTags: (_r, _e, id) => [{ type: 'Messages', id }],
    }),
    sendMessage: b.mutation<MessageView, { conversationId: string; content: string; attachments?: MessageAttachmentDto[] }>({
      query: ({ conversationId, content, attachments }) => ({
        url: `/messages/conversations/${conversationId}/messages`,
        method: 'POST',
        body: attachments?.length ? { content, attachments } : { content },
      }),
      transformResponse: (r: unknown) => data<MessageView>(r),
    }),
    editMessage: b.mutation<MessageView, { id: string; content: string }>({
      query: ({ id, content }) => ({ url: `/messages/${id}`, method: 'PUT', body: { content } }),
      transformResponse: (r: unknown) => data<MessageView>(r),
    }),
    deleteMessage: b.mutation<MessageView, string>({
      query: (id) => ({ url: `/messages/${id}`, method: 'DELETE' }),
      transformResponse: (r: unknown) => data<MessageView>(r),
    }),
    react: b.mutation<MessageView, { id: string; emoji: string; add: boolean }>({
      query: ({ id, emoji, add }) => ({ url: `/messages/${id}/reactions`, method: add ? 'POST' : 'DELETE', body: { emoji } }),
      transformResponse: (r: unknown) => data<MessageView>(r),
    }),
    createConversation: b.mutation<ConversationView, string[]>({
      query: (memberIds) => ({ url: '/messages/conversations', method: 'POST', body: { memberIds } }),
      transformResponse: (r: unknown) => data<ConversationView>(r),
      invalidatesTags: ['Conversation'],
    }),
    markConversationRead: b.mutation<void, string>({
      query: (id) => ({ url: `/messages/conversations/${id}/read`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const p = dispatch(
          messagesApi.util.updateQueryData('conversations', undefined, (list) => {
            const c = list.find((x) => x.id === id);
            if (c) c.unread_count = 0;
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          p.undo();
        }
      },
    }),
  }),
});

export const {
  useConversationsQuery,
  useMessagesQuery,
  useSendMessageMutation,
  useCreateConversationMutation,
  useMarkConversationReadMutation,
  useEditMessageMutation,
  useDeleteMessageMutation,
  useReactMutation,
} = messagesApi;

/** The few reactions the picker offers (the API takes any single emoji). */
export const REACTION_EMOJIS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** A message as the conversation list previews it. */
export function lastMessageOf(m: MessageView): LastMessageView {
  return { id: m.id, content: m.content, sender: m.sender, created_at: m.created_at, deleted: false, images: m.attachments?.length ?? 0 };
}

/**
 * A `conversation-read` push: my own read (another tab) clears my unread count; the other member's
 * read in a one-to-one moves their read marker, which shows "Seen" under my messages up to it.
 */
export function applyConversationRead(p: ServerToClientPayloads['conversation-read'], myId: string) {
  return (dispatch: AppDispatch): void => {
    dispatch(
      messagesApi.util.updateQueryData('conversations', undefined, (list) => {
        const c = list.find((x) => x.id === p.conversationId);
        if (!c) return;
        if (p.userId === myId) c.unread_count = 0;
        else if (!c.is_group && (!c.other_read_at || c.other_read_at < p.readAt)) c.other_read_at = p.readAt;
      }),
    );
  };
}

/** The id of my newest message the other member has read (at or before their read marker), for "Seen". */
export function seenMessageId(messages: readonly MessageView[], conversation: ConversationView, myId: string | undefined): string | null {
  const readAt = conversation.is_group ? null : conversation.other_read_at;
  if (!readAt || !myId) return null;
  const mine = messages.filter((m) => m.sender_id === myId && !m.deleted && m.created_at <= readAt);
  return mine.length ? mine[mine.length - 1].id : null;
}

/** Most recent update first (part 2 §2, §4). */
export function sortConversations(list: ConversationView[]): ConversationView[] {
  const t = (c: ConversationView) => new Date(c.last_message?.created_at ?? c.updated_at ?? c.created_at).getTime();
  return [...list].sort((a, b) => t(b) - t(a));
}

/**
 * A pushed message becomes its conversation's last message in the cached list (unread +1 unless it is
 * mine or its chat is open). Returns false when the conversation is not in the list yet (a refetch is due).
 */
export function applyPushedMessage(m: MessageView, myId: string, openId: string | null) {
  return (dispatch: AppDispatch, getState: () => RootState): boolean => {
    const cached = messagesApi.endpoints.conversations.select()(getState()).data;
    if (!cached) return true; // nothing shows the list
    if (!cached.some((c) => c.id === m.conversation_id)) return false;
    dispatch(
      messagesApi.util.updateQueryData('conversations', undefined, (list) => {
        const c = list.find((x) => x.id === m.conversation_id);
        if (!c || c.last_message?.id === m.id) return;
        c.last_message = lastMessageOf(m);
        c.updated_at = m.created_at;
        if (m.sender_id !== myId && m.conversation_id !== openId) c.unread_count = (c.unread_count ?? 0) + 1;
        list.splice(0, list.length, ...sortConversations(list));
      }),
    );
    return true;
  };
}

/** A change to one message, as a reply (the whole view) or a push (`message-updated`, `-deleted`, `-reactions`). */
export type MessageChange =
  | { kind: 'view'; message: MessageView }
  | ({ kind: 'updated' } & ServerToClientPayloads['message-updated'])
  | ({ kind: 'deleted' } & ServerToClientPayloads['message-deleted'])
  | ({ kind: 'reactions' } & ServerToClientPayloads['message-reactions']);

/** Applies a change to one cached message; `me` flags move only for the viewer's own reactions. */
export function changeMessage(m: MessageView, change: MessageChange, myId: string | undefined): void {
  if (change.kind === 'view') {
    Object.assign(m, change.message);
  } else if (change.kind === 'updated') {
    if (m.deleted) return; // a late edit never brings a deleted text back
    m.content = change.content;
    m.edited_at = change.edited_at;
  } else if (change.kind === 'deleted') {
    m.content = '';
    m.deleted = true;
    m.reactions = [];
  } else {
    const mine = new Map((m.reactions ?? []).map((r) => [r.emoji, r.me]));
    m.reactions = change.reactions.map(({ emoji, count }) => ({
      emoji,
      count,
      me: change.userId === myId && emoji === change.emoji ? change.added : (mine.get(emoji) ?? false),
    }));
  }
}

/** Writes a message change into its conversation's cached page and, for the last message, the list preview. */
export function applyMessageChange(conversationId: string, messageId: string, change: MessageChange, myId: string | undefined) {
  return (dispatch: AppDispatch): void => {
    dispatch(
      messagesApi.util.updateQueryData('messages', conversationId, (list) => {
        const m = list.find((x) => x.id === messageId);
        if (m) changeMessage(m, change, myId);
      }),
    );
    if (change.kind === 'reactions') return;
    dispatch(
      messagesApi.util.updateQueryData('conversations', undefined, (list) => {
        const last = list.find((c) => c.id === conversationId)?.last_message;
        if (!last || last.id !== messageId) return;
        const deleted = change.kind === 'deleted' || (change.kind === 'view' && change.message.deleted);
        if (deleted) Object.assign(last, { content: '', deleted: true, images: 0 });
        else if (change.kind === 'updated') last.content = change.content;
        else if (change.kind === 'view') last.content = change.message.content;
      }),
    );
  };
}
