import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Cache, createCache } from '@app/store';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { MessagingClient } from './messaging.client';
import { conversationRoom, userRoom } from './rooms';
import { AuthedSocket } from './socket-auth';
import { RealtimeServer } from './socket-types';

const CONVERSATION_PREFIX = conversationRoom('');

/** One key per pair, whichever way the block goes. */
const pairKey = (a: string, b: string) => `block:${[a, b].sort().join('|')}`;
const squadChatKey = (squadId: string) => `squad-chat:${squadId}`;

/**
 * Who may be in a conversation's room (issue 17 §4). Membership comes from the messaging service
 * (briefly cached, forgotten when an event changes it); on top, the two members of a one-to-one
 * with a block between them are kept out, as messaging refuses their messages. Blocks and squad
 * chats are learned from events into the cache port (Redis with REDIS_URL, so every gateway and
 * a restarted one share them). Events evict the sockets they concern from rooms at once.
 */
@Injectable()
export class RoomGuard implements OnModuleInit, OnApplicationShutdown {
  private readonly cache: Cache;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly messaging: MessagingClient,
  ) {
    this.cache = createCache({ redisUrl: config.REDIS_URL, keyPrefix: 'gateway:' });
  }

  onModuleInit(): Promise<void> {
    return this.cache.connect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }

  /** Checked on every join and typing event; messaging checks sends itself. */
  async mayUse(socket: AuthedSocket, conversationId: string): Promise<boolean> {
    const { user, token } = socket.data;
    const members = await this.messaging.membersOf(conversationId, user.id, token);
    if (!members) return false;
    const other = members.length === 2 ? members.find((id) => id !== user.id) : undefined;
    return other === undefined || !(await this.cache.exists(pairKey(user.id, other)));
  }

  /** Both sides of a new block leave their one-to-one rooms on this gateway. */
  async blocked(server: RealtimeServer, blockerId: string, blockedId: string): Promise<void> {
    await this.cache.set(pairKey(blockerId, blockedId), '1');
    for (const id of [blockerId, blockedId]) this.messaging.forget(id);
    await Promise.all([blockerId, blockedId].map((id) => this.evictUnless(server, id)));
  }

  unblocked(blockerId: string, blockedId: string): Promise<void> {
    return this.cache.del(pairKey(blockerId, blockedId));
  }

  /** Remembers which conversation is a squad's chat, so a member who leaves can be put out of it. */
  async squadChatCreated(squadId: string, conversationId: string): Promise<void> {
    await this.cache.set(squadChatKey(squadId), conversationId);
  }

  /** A member who left or was removed leaves the squad's chat room (every conversation room when it is not known). */
  async leftSquad(server: RealtimeServer, userId: string, squadId: string): Promise<void> {
    this.messaging.forget(userId);
    const chat = await this.cache.get(squadChatKey(squadId));
    const sockets = await server.local.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      const rooms = chat ? [conversationRoom(chat)] : [...socket.rooms].filter((room) => room.startsWith(CONVERSATION_PREFIX));
      rooms.forEach((room) => socket.leave(room));
    }
  }

  /** The member's local sockets leave each conversation room they may no longer use. */
  private async evictUnless(server: RealtimeServer, userId: string): Promise<void> {
    const sockets = (await server.local.in(userRoom(userId)).fetchSockets()) as unknown as AuthedSocket[];
    for (const socket of sockets) {
      for (const room of [...socket.rooms].filter((r) => r.startsWith(CONVERSATION_PREFIX))) {
        const allowed = await this.mayUse(socket, room.slice(CONVERSATION_PREFIX.length)).catch(() => false);
        if (!allowed) await socket.leave(room);
      }
    }
  }
}
