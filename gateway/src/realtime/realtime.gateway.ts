import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import { MessageView, SocketAck } from '@app/contracts';
import { RealtimeServer } from './socket-types';
import { socketConnections } from '@app/platform';
import { SessionCutoffs } from '../access/session-cutoffs';
import { MessagingClient, MessagingUnavailableError } from './messaging.client';
import { RoomGuard } from './room-guard';
import { conversationRoom, idFrom, userRoom } from './rooms';
import { AuthedSocket, socketAuth } from './socket-auth';
import { SocketLimits, tooManyEvents } from './socket-limits';
import { allowTyping } from './typing-throttle';

const NOT_A_MEMBER = 'You are not a member of this conversation';

function failure(err: unknown, fallback: string): SocketAck<never> {
  return { success: false, message: err instanceof MessagingUnavailableError ? err.message : fallback };
}

/**
 * The real-time socket of spec part 2 §7 (ARCHITECTURE §7): rooms per member and per
 * conversation, message sends forwarded to the messaging service, typing indicators.
 * Delivery of messages and notifications is the EventRelay's job.
 */
@WebSocketGateway({ path: '/socket.io', transports: ['polling', 'websocket'] })
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(RealtimeGateway.name);

  @WebSocketServer()
  server: RealtimeServer;

  constructor(
    private readonly jwt: JwtService,
    private readonly messaging: MessagingClient,
    private readonly limits: SocketLimits,
    private readonly rooms: RoomGuard,
    private readonly sessions: SessionCutoffs,
  ) {}

  afterInit(server: RealtimeServer): void {
    server.use(socketAuth(this.jwt, this.sessions));
  }

  /** Every socket is in its member's room from the start: notifications and messages need no join. */
  async handleConnection(socket: AuthedSocket): Promise<void> {
    socketConnections.inc();
    await socket.join(userRoom(socket.data.user.id));
  }

  handleDisconnect(): void {
    socketConnections.dec();
  }

  @SubscribeMessage('join-user-room')
  async joinUserRoom(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<SocketAck> {
    const wait = await this.limits.event(socket.id);
    if (wait) return tooManyEvents(wait);
    const userId = idFrom(payload, 'userId');
    if (userId !== socket.data.user.id) return { success: false, message: 'You can only join your own room' };
    await socket.join(userRoom(socket.data.user.id));
    return { success: true };
  }

  @SubscribeMessage('join-conversation')
  async joinConversation(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<SocketAck> {
    const wait = await this.limits.event(socket.id);
    if (wait) return tooManyEvents(wait);
    const conversationId = idFrom(payload, 'conversationId');
    if (!conversationId) return { success: false, message: 'conversationId is required' };
    try {
      if (!(await this.rooms.mayUse(socket, conversationId))) return { success: false, message: NOT_A_MEMBER };
    } catch (err) {
      return failure(err, 'Failed to join the conversation');
    }
    await socket.join(conversationRoom(conversationId));
    return { success: true };
  }

  @SubscribeMessage('leave-conversation')
  async leaveConversation(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<SocketAck> {
    const wait = await this.limits.event(socket.id);
    if (wait) return tooManyEvents(wait);
    const conversationId = idFrom(payload, 'conversationId');
    if (!conversationId) return { success: false, message: 'conversationId is required' };
    await socket.leave(conversationRoom(conversationId));
    return { success: true };
  }

  /** Persisted by the messaging service first; every member's socket gets it from `message.sent`. */
  @SubscribeMessage('send-message')
  async sendMessage(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<SocketAck<MessageView>> {
    const wait = (await this.limits.event(socket.id)) || (await this.limits.message(socket.data.user.id));
    if (wait) return tooManyEvents(wait);
    const conversationId = idFrom(payload, 'conversationId');
    const { content, attachments } = (payload ?? {}) as { content?: unknown; attachments?: unknown };
    if (!conversationId || typeof content !== 'string') {
      return { success: false, message: 'conversationId and content are required' };
    }
    if (attachments !== undefined && !Array.isArray(attachments)) return { success: false, message: 'attachments must be a list' };
    try {
      // The images were uploaded first (POST /api/media); messaging checks each names an upload.
      const body = attachments?.length ? { content, attachments } : { content };
      const result = await this.messaging.send(conversationId, body, socket.data.token);
      if (result.ok) return { success: true, data: result.message };
      return { success: false, message: result.message, ...(result.code && { code: result.code }) };
    } catch (err) {
      this.logger.warn(`send-message failed: ${(err as Error).message}`);
      return failure(err, 'Failed to send message');
    }
  }

  @SubscribeMessage('typing-start')
  async typingStart(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<void> {
    const { user } = socket.data;
    await this.relayTyping(socket, payload, 'user-typing', (room, conversationId) =>
      room.emit('user-typing', { conversationId, userId: user.id, username: user.username }),
    );
  }

  @SubscribeMessage('typing-stop')
  async typingStop(@ConnectedSocket() socket: AuthedSocket, @MessageBody() payload: unknown): Promise<void> {
    await this.relayTyping(socket, payload, 'user-stopped-typing', (room, conversationId) =>
      room.emit('user-stopped-typing', { conversationId, userId: socket.data.user.id }),
    );
  }

  /**
   * To the conversation's room only, never back to the sender, throttled per socket, and only
   * from a socket that may use the conversation now (a member, no block in a one-to-one): being
   * in the room is not enough, it may predate a removal or a block. The user id and name come
   * from the token, not from the payload.
   */
  private async relayTyping(
    socket: AuthedSocket,
    payload: unknown,
    event: 'user-typing' | 'user-stopped-typing',
    push: (room: ReturnType<AuthedSocket['to']>, conversationId: string) => void,
  ): Promise<void> {
    // Over the socket's budget a typing event is dropped: it has no ack to carry an error.
    if (await this.limits.event(socket.id)) return;
    const conversationId = idFrom(payload, 'conversationId');
    if (!conversationId || !allowTyping(socket.data.typingAt, `${event}:${conversationId}`)) return;
    if (await this.rooms.mayUse(socket, conversationId).catch(() => false)) {
      push(socket.to(conversationRoom(conversationId)), conversationId);
    }
  }
}
