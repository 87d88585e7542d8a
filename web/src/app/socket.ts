import { io, type Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import { api } from './api';
import { useAppDispatch, useSession } from './store';

let socket: Socket | null = null;
let socketToken: string | null = null;
const listeners = new Set<(s: Socket | null) => void>();

/** One socket per session: page origin, path /socket.io, long-polling only, 20 s timeout (part 2 §7). */
export function connectSocket(token: string, userId: string): Socket {
  if (socket && socketToken === token) return socket;
  disconnectSocket();
  socketToken = token;
  socket = io({
    path: '/socket.io',
    transports: ['polling'],
    withCredentials: true,
    timeout: 20_000,
    auth: { token },
  });
  const s = socket;
  s.on('connect', () => s.emit('join-user-room', userId));
  listeners.forEach((l) => l(s));
  return s;
}

export function disconnectSocket(): void {
  if (socket) {
    socket.removeAllListeners();
    socket.disconnect();
  }
  socket = null;
  socketToken = null;
  listeners.forEach((l) => l(null));
}

export function getSocket(): Socket | null {
  return socket;
}

/** The current socket, re-rendering when it changes. */
export function useSocket(): Socket | null {
  const [s, setS] = useState<Socket | null>(socket);
  useEffect(() => {
    listeners.add(setS);
    setS(socket);
    return () => void listeners.delete(setS);
  }, []);
  return s;
}

/** Keeps the socket in step with the session and refreshes notifications on the `notification` event. */
export function useRealtime(): void {
  const { token, user } = useSession();
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!token || !user) {
      disconnectSocket();
      return;
    }
    const s = connectSocket(token, user.id);
    const onNotification = () => dispatch(api.util.invalidateTags(['Notification']));
    const onMessage = () => dispatch(api.util.invalidateTags(['Conversation']));
    s.on('notification', onNotification);
    s.on('new-message', onMessage);
    return () => {
      s.off('notification', onNotification);
      s.off('new-message', onMessage);
    };
  }, [token, user?.id, dispatch]); // eslint-disable-line react-hooks/exhaustive-deps
}
