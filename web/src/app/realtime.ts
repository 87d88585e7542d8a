import { useEffect } from 'react';
import { api } from '../core/api';
import { coalesce } from '../core/coalesce';
import { roleChanged } from '../core/session';
import { disconnectSocket } from '../core/socket';
import { connectSocket } from '../core/socket-connect';
import { useAppDispatch, useSession } from '../core/store';
import { useIdle } from '../shared/useIdle';
import { applyPushedNotification } from '../features/notifications/notificationsApi';
import { applyConversationRead, applyMessageChange, applyPushedMessage } from '../features/messages/messagesApi';
import type { MessageView, NotificationView, PushedNotification, ServerToClientPayloads } from '@app/contracts';

/** The server's view is refetched at most once per second of live events: the payload already updated the cache. */
export const REFETCH_WINDOW_MS = 1000;

/** The conversation open in the chat pane, from the address (/messages/{id}). */
function openConversationId(): string | null {
  return /^\/messages\/([^/]+)/.exec(window.location.pathname)?.[1] ?? null;
}

/**
 * Keeps the socket in step with the session and writes pushed `notification` and `new-message` payloads
 * into the cache, so a burst of N events costs a bounded number of requests rather than 3N.
 */
function useRealtime(): void {
  const { token, user } = useSession();
  const dispatch = useAppDispatch();
  // the socket opens once the first screen is drawn: nothing on it is needed to draw that screen
  const idle = useIdle();
  useEffect(() => {
    if (!token || !user) {
      disconnectSocket();
      return;
    }
    if (!idle) return;
    const s = connectSocket(token, user.id);
    const refetchNotifications = coalesce(() => dispatch(api.util.invalidateTags(['Notification'])), REFETCH_WINDOW_MS);
    const refetchConversations = coalesce(() => dispatch(api.util.invalidateTags(['Conversation'])), REFETCH_WINDOW_MS);
    const onNotification = (n: PushedNotification) => {
      // the push carries the stored notification; its type is one of the service's NotificationTypes
      dispatch(applyPushedNotification(n as NotificationView));
      refetchNotifications();
    };
    const onMessage = (m: MessageView) => {
      if (!dispatch(applyPushedMessage(m, user.id, openConversationId()))) refetchConversations();
    };
    // edits, deletes and reactions: into the open chat's cache and the list preview, on every tab
    const onUpdated = (p: ServerToClientPayloads['message-updated']) =>
      dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'updated', ...p }, user.id));
    const onDeleted = (p: ServerToClientPayloads['message-deleted']) =>
      dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'deleted', ...p }, user.id));
    const onReactions = (p: ServerToClientPayloads['message-reactions']) =>
      dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'reactions', ...p }, user.id));
    // read receipts: my other tabs' unread counts, and "Seen" in a one-to-one
    const onRead = (p: ServerToClientPayloads['conversation-read']) => dispatch(applyConversationRead(p, user.id));
    const onRole = (p: ServerToClientPayloads['role-changed']) => dispatch(roleChanged(p.role));
    s.on('role-changed', onRole);
    s.on('conversation-read', onRead);
    s.on('notification', onNotification);
    s.on('new-message', onMessage);
    s.on('message-updated', onUpdated);
    s.on('message-deleted', onDeleted);
    s.on('message-reactions', onReactions);
    return () => {
      s.off('role-changed', onRole);
      s.off('conversation-read', onRead);
      s.off('message-updated', onUpdated);
      s.off('message-deleted', onDeleted);
      s.off('message-reactions', onReactions);
      refetchNotifications.cancel();
      refetchConversations.cancel();
      s.off('notification', onNotification);
      s.off('new-message', onMessage);
    };
  }, [token, user?.id, dispatch, idle]); // eslint-disable-line react-hooks/exhaustive-deps
}

/**
 * The socket's keeper as a component of its own: its start once the page is idle (useIdle) draws
 * this, not the whole frame around it.
 */
export function Realtime(): null {
  useRealtime();
  return null;
}
