import type { Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import type { ClientToServerEvents, ServerToClientEvents } from '@app/contracts';

/** The session's socket, both directions typed by the realtime contract. */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | null = null;
let socketToken: string | null = null;
const listeners = new Set<(s: AppSocket | null) => void>();

/**
 * Makes `s` the session's socket for `token` and tells the hooks. Opening it is socket-connect.ts's job, so
 * socket.io-client loads with the signed-in frame, not with the landing page.
 */
export function installSocket(s: AppSocket, token: string): void {
  socket = s;
  socketToken = token;
  listeners.forEach((l) => l(s));
}

/** The open socket when it was opened with `token`. */
export function socketFor(token: string): AppSocket | null {
  return socket && socketToken === token ? socket : null;
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
