import { api, data, listOf } from '../../core/api';
import type { ConversationView, MessageView } from '@app/contracts';
import type { AppDispatch, RootState } from '../../core/store';

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
    sendMessage: b.mutation<MessageView, { conversationId: string; content: string }>({
      query: ({ conversationId, content }) => ({ url: `/messages/conversations/${conversationId}/messages`, method: 'POST', body: { content } }),
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

export const { useConversationsQuery, useMessagesQuery, useSendMessageMutation, useCreateConversationMutation, useMarkConversationReadMutation } =
  messagesApi;

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
        c.last_message = { id: m.id, content: m.content, sender: m.sender, created_at: m.created_at };
        c.updated_at = m.created_at;
        if (m.sender_id !== myId && m.conversation_id !== openId) c.unread_count = (c.unread_count ?? 0) + 1;
        list.splice(0, list.length, ...sortConversations(list));
      }),
    );
    return true;
  };
}
