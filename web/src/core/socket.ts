import { io, type Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import type { ClientToServerEvents, ServerToClientEvents } from '@app/contracts';

/** The session's socket, both directions typed by the realtime contract. */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let socketToken: string | null = null;
const listeners = new Set<(s: AppSocket | null) => void>();

/**
 * One socket per session: page origin, path /socket.io, 20 s timeout (part 2 §7). A websocket first with
 * long-polling as the fallback (the spec's client polled only; the gateway serves both).
 */
export function connectSocket(token: string, userId: string): AppSocket {
  if (socket && socketToken === token) return socket;
  disconnectSocket();
  socketToken = token;
  socket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
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

export function getSocket(): AppSocket | null {
  return socket;
}

/** The current socket, re-rendering when it changes. */
export function useSocket(): AppSocket | null {
  const [s, setS] = useState<AppSocket | null>(socket);
  useEffect(() => {
    listeners.add(setS);
    setS(socket);
    return () => void listeners.delete(setS);
  }, []);
  return s;
}
