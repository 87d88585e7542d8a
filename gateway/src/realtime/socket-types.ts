import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '@app/contracts';

/** socket.io typed by the contract both ways, so an emit or a handler with the wrong payload does not compile. */
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;
export type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
