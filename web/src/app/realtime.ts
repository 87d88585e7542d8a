import { useEffect } from 'react';
import { api } from '../core/api';
import { coalesce } from '../core/coalesce';
import { roleChanged, userLoaded } from '../core/session';
import { disconnectSocket, type AppSocket } from '../core/socket';
import { useAppDispatch, useSession, type AppDispatch, type RootState } from '../core/store';
import { useIdle } from '../shared/useIdle';
import { authApi } from '../features/auth/authApi';
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
    // socket.io's chunk is asked for here, once the page is idle: nothing before needs it
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import('../core/socket-connect')
      // the chunk's evaluation and the socket's opening in two tasks: together they were one long task on a phone
      .then((m) => new Promise<typeof m>((resolve) => setTimeout(() => resolve(m), 0)))
      .then(({ connectSocket }) => {
        if (!cancelled) stop = listenToSocket(connectSocket(token, user.id), user.id, dispatch);
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [token, user?.id, dispatch, idle]); // eslint-disable-line react-hooks/exhaustive-deps
}

/**
 * Asks again the queries providing `tags` that were asked before `moment`: a reply read on the server before the
 * socket joined its room may lack what was pushed since. One asked after it needs nothing (its room was joined).
 */
function refetchAskedBefore(moment: number, tags: Array<'Notification' | 'Conversation' | 'Messages' | 'Squad' | 'SquadRequests' | 'Moderation'>) {
  return (dispatch: AppDispatch, getState: () => RootState) => {
    const state = getState();
    for (const { endpointName, originalArgs, queryCacheKey } of api.util.selectInvalidatedBy(state, tags)) {
      const started = state.api.queries[queryCacheKey]?.startedTimeStamp;
      // the endpoints are injected by the features: the base api's type does not name them
      if (started !== undefined && started < moment) dispatch(api.util.prefetch(endpointName as never, originalArgs as never, { force: true }));
    }
  };
}

/** The session's events on `s` into the store (exported for its spec); returns what takes them off again. */
export function listenToSocket(s: AppSocket, userId: string, dispatch: AppDispatch): () => void {
  const refetchNotifications = coalesce(() => dispatch(api.util.invalidateTags(['Notification'])), REFETCH_WINDOW_MS);
  const refetchConversations = coalesce(() => dispatch(api.util.invalidateTags(['Conversation'])), REFETCH_WINDOW_MS);
  // squad and moderation pushes name what changed, not its new state: the views are read again with the member's rights
  const refetchSquads = coalesce(() => dispatch(api.util.invalidateTags(['Squad', 'SquadRequests', 'Stats'])), REFETCH_WINDOW_MS);
  const refetchModeration = coalesce(() => dispatch(api.util.invalidateTags(['Moderation'])), REFETCH_WINDOW_MS);
  const onNotification = (n: PushedNotification) => {
    // the push carries the stored notification; its type is one of the service's NotificationTypes
    dispatch(applyPushedNotification(n as NotificationView));
    refetchNotifications();
  };
  const onMessage = (m: MessageView) => {
    if (!dispatch(applyPushedMessage(m, userId, openConversationId()))) refetchConversations();
  };
  // edits, deletes and reactions: into the open chat's cache and the list preview, on every tab
  const onUpdated = (p: ServerToClientPayloads['message-updated']) =>
    dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'updated', ...p }, userId));
  const onDeleted = (p: ServerToClientPayloads['message-deleted']) =>
    dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'deleted', ...p }, userId));
  const onReactions = (p: ServerToClientPayloads['message-reactions']) =>
    dispatch(applyMessageChange(p.conversationId, p.messageId, { kind: 'reactions', ...p }, userId));
  // read receipts: my other tabs' unread counts, and "Seen" in a one-to-one
  const onRead = (p: ServerToClientPayloads['conversation-read']) => dispatch(applyConversationRead(p, userId));
  const onRole = (p: ServerToClientPayloads['role-changed']) => dispatch(roleChanged(p.role));
  // A push sent while no socket listened (before the first connect, or between a drop and a reconnect) is
  // lost: what pushes keep current is read again on each connect (the role, the badges, the lists, a chat).
  const onConnect = () => {
    void dispatch(authApi.endpoints.me.initiate(undefined, { subscribe: false, forceRefetch: true }))
      .unwrap()
      .then((u) => dispatch(userLoaded(u)), () => undefined);
    dispatch(refetchAskedBefore(Date.now(), ['Notification', 'Conversation', 'Messages', 'Squad', 'SquadRequests', 'Moderation']));
  };
  s.on('connect', onConnect);
  s.on('role-changed', onRole);
  s.on('conversation-read', onRead);
  s.on('notification', onNotification);
  s.on('new-message', onMessage);
  s.on('message-updated', onUpdated);
  s.on('message-deleted', onDeleted);
  s.on('message-reactions', onReactions);
  s.on('squad-changed', refetchSquads);
  s.on('moderation-queue', refetchModeration);
  return () => {
    s.off('connect', onConnect);
    s.off('role-changed', onRole);
    s.off('conversation-read', onRead);
    s.off('message-updated', onUpdated);
    s.off('message-deleted', onDeleted);
    s.off('message-reactions', onReactions);
    s.off('squad-changed', refetchSquads);
    s.off('moderation-queue', refetchModeration);
    refetchNotifications.cancel();
    refetchConversations.cancel();
    refetchSquads.cancel();
    refetchModeration.cancel();
    s.off('notification', onNotification);
    s.off('new-message', onMessage);
  };
}

/**
 * The socket's keeper as a component of its own: its start once the page is idle (useIdle) draws
 * this, not the whole frame around it.
 */
export function Realtime(): null {
  useRealtime();
  return null;
}
