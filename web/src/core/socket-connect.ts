import { io } from 'socket.io-client';
import { disconnectSocket, installSocket, socketFor, type AppSocket } from './socket';

/**
 * One socket per session: page origin, path /socket.io, 20 s timeout (part 2 §7). A websocket first with
 * long-polling as the fallback (the spec's client polled only; the gateway serves both).
 */
export function connectSocket(token: string, userId: string): AppSocket {
  const open = socketFor(token);
  if (open) return open;
  disconnectSocket();
  const s: AppSocket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    withCredentials: true,
    timeout: 20_000,
    auth: { token },
  });
  s.on('connect', () => s.emit('join-user-room', userId));
  installSocket(s, token);
  return s;
}
