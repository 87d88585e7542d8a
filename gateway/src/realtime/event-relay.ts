import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AnyEventEnvelope, eventProblems, EventType, isEventEnvelope } from '@app/contracts';
import { BusTransport, createTransport, Subscription } from '@app/bus';
import { GatewayConfig } from '../config/gateway.config';
import { GATEWAY_CONFIG } from '../gateway.tokens';
import { SessionCutoffs } from '../access/session-cutoffs';
import { RealtimeGateway } from './realtime.gateway';
import { RoomGuard } from './room-guard';
import { userRoom } from './rooms';
import { SocketSession } from './socket-auth';

/** Pushed to sockets, or changing who may hold a socket or be in a room. */
const RELAYED: EventType[] = [
  'message.sent',
  'message.edited',
  'message.deleted',
  'message.reaction_changed',
  'notification.created',
  'auth.sessions_revoked',
  'block.created',
  'block.removed',
  'conversation.created',
  'squad.member_left',
  'conversation.read',
  'moderation.role_changed',
  'moderation.report_filed',
  'moderation.report_dismissed',
  'moderation.content_hidden',
  'squad.join_requested',
  'squad.join_decided',
  'squad.member_joined',
  'squad.member_role_changed',
];

/**
 * The members a push-only event is for, read before its payload is checked; undefined for the
 * events that also change sessions or rooms (those are always applied).
 */
function pushedTo(event: AnyEventEnvelope): unknown[] | undefined {
  const payload = event.payload as unknown as Record<string, unknown>;
  const members = () => (Array.isArray(payload.memberIds) ? payload.memberIds : [payload.memberIds]);
  switch (event.type) {
    case 'message.sent':
    case 'message.edited':
    case 'message.deleted':
    case 'message.reaction_changed':
      return members();
    case 'conversation.read':
      // Groups and squad chats keep who read what private: only the reader's own tabs hear of it.
      return payload.isGroup ? [payload.userId] : members();
    case 'moderation.role_changed':
      return [payload.userId];
    case 'notification.created':
      return payload.push ? [payload.recipientId] : [];
    case 'moderation.report_filed':
    case 'moderation.report_dismissed':
    case 'moderation.content_hidden':
      // A hide stored before hides named the staff reaches no queue.
      return Array.isArray(payload.staffIds) ? payload.staffIds : [];
    case 'squad.join_requested':
    case 'squad.join_decided':
    case 'squad.member_role_changed':
      // The member concerned and the squad's managers: both sides of the squad page.
      return [payload.userId, ...(Array.isArray(payload.managerIds) ? payload.managerIds : [])];
    case 'squad.member_joined':
      return [payload.userId];
    default:
      return undefined;
  }
}

/**
 * How many relayed event ids a gateway remembers. An event can reach the stream twice: a service
 * that dies between publishing it and dropping its outbox row has it published again by the
 * outbox relay (same id, seconds later). Services drop the repeat in their inbox; this is the
 * gateway's inbox, so a socket is not pushed the same notification or message twice.
 */
const REMEMBERED_EVENTS = 20_000;

/**
 * Pushes bus events to sockets. Each gateway reads every event (its own broadcast group:
 * the `broadcast:` prefix makes the transports start at the newest entry and drop the group
 * on close) and emits to its own sockets only (`server.local`), so with the Redis adapter
 * each member's socket gets each event exactly once, whichever gateway it is on.
 */
@Injectable()
export class EventRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EventRelay.name);
  private transport?: BusTransport;
  private subscription?: Subscription;
  /** Ids of the events relayed lately, oldest first (a Set keeps insertion order). */
  private readonly relayed = new Set<string>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly gateway: RealtimeGateway,
    private readonly rooms: RoomGuard,
    private readonly sessions: SessionCutoffs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const transport = createTransport({
      engine: this.config.BUS,
      redisUrl: this.config.REDIS_URL,
      kafkaBrokers: this.config.KAFKA_BROKERS?.split(',').map((b) => b.trim()),
      clientId: 'gateway',
    });
    this.transport = transport;
    await transport.connect();
    const name = `gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.subscription = await transport.subscribe({
      group: `broadcast:${name}`,
      consumer: name,
      types: RELAYED,
      handler: async (event) => this.relay(event),
      // A revocation published while the group was gone never arrives: the cut-offs are asked again.
      onGap: () => this.sessions.forgetAll(),
    });
    this.sessions.follow(this.subscription);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
    // The in-process bus is shared with the services of this process: its owner closes it.
    if (this.transport && this.transport.engine !== 'memory') await this.transport.close();
  }

  /** Never throws: a push that cannot be made is not worth redelivering to every gateway. */
  async relay(event: AnyEventEnvelope): Promise<void> {
    if (!isEventEnvelope(event)) {
      this.logger.error('Dropped a malformed event');
      return;
    }
    const members = pushedTo(event);
    // A push for members with no socket here (most notifications, a review's fan-out): nothing to
    // check or send. Member ids that are not text go on to the check, which logs the event.
    if (members?.every((id): id is string => typeof id === 'string') && !this.anyoneHere(members)) return;
    // Validated as every bus consumer does (BusServer): a socket never sees a payload its class refuses.
    const problems = eventProblems(event);
    if (problems.length > 0) {
      this.logger.error(`Dropped ${event.type} v${event.version} ${event.id}: ${problems.join('; ')}`);
      return;
    }
    if (this.relayed.has(event.id)) return;
    this.relayed.add(event.id);
    if (this.relayed.size > REMEMBERED_EVENTS) this.relayed.delete(this.relayed.values().next().value as string);
    if (!members) {
      await this.revoke(event).catch((err: Error) => this.logger.warn(`${event.type} not applied to sockets: ${err.message}`));
      return;
    }
    // To this gateway's sockets only, one emit to all the members' rooms: a socket in several of them still gets it once.
    const to = this.gateway.server.local.to((members as string[]).map(userRoom));
    if (event.type === 'message.sent') {
      const m = event.payload.message;
      // A new message has no edit or reactions yet; events stored before those fields existed lack them.
      const message = { ...m, edited_at: m.edited_at ?? null, deleted: m.deleted ?? false, reactions: [], attachments: m.attachments ?? [] };
      to.emit('new-message', message);
    } else if (event.type === 'message.edited') {
      const { conversationId, messageId, content, editedAt } = event.payload;
      to.emit('message-updated', { conversationId, messageId, content, edited_at: editedAt });
    } else if (event.type === 'message.deleted') {
      const { conversationId, messageId } = event.payload;
      to.emit('message-deleted', { conversationId, messageId });
    } else if (event.type === 'message.reaction_changed') {
      const { conversationId, messageId, userId, emoji, added, reactions } = event.payload;
      to.emit('message-reactions', { conversationId, messageId, userId, emoji, added, reactions });
    } else if (event.type === 'conversation.read') {
      const { conversationId, userId, readAt } = event.payload;
      to.emit('conversation-read', { conversationId, userId, readAt });
    } else if (event.type === 'moderation.role_changed') {
      // The member's tabs show the new role without signing in again (issue 31 §1).
      to.emit('role-changed', { role: event.payload.role });
    } else if (event.type === 'notification.created') {
      to.emit('notification', event.payload.notification);
    } else if (event.type === 'moderation.report_filed' || event.type === 'moderation.report_dismissed' || event.type === 'moderation.content_hidden') {
      to.emit('moderation-queue', {});
    } else if (
      event.type === 'squad.join_requested' ||
      event.type === 'squad.join_decided' ||
      event.type === 'squad.member_joined' ||
      event.type === 'squad.member_role_changed'
    ) {
      to.emit('squad-changed', { squadId: event.payload.squadId });
    }
  }

  /** Whether any of these members has a socket on this gateway. */
  private anyoneHere(memberIds: string[]): boolean {
    const joined = this.gateway.server.sockets.adapter.rooms;
    return memberIds.some((id) => (joined.get(userRoom(id))?.size ?? 0) > 0);
  }

  /** Events that take something away: a session, a room. */
  private async revoke(event: AnyEventEnvelope): Promise<void> {
    const server = this.gateway.server;
    if (event.type === 'auth.sessions_revoked') {
      const { userId, version } = event.payload;
      await this.sessions.raise(userId, version);
      for (const socket of await server.local.in(userRoom(userId)).fetchSockets()) {
        if ((socket.data as SocketSession).sessionVersion < version) socket.disconnect(true);
      }
    } else if (event.type === 'block.created') {
      await this.rooms.blocked(server, event.payload.blockerId, event.payload.blockedId);
    } else if (event.type === 'block.removed') {
      await this.rooms.unblocked(event.payload.blockerId, event.payload.blockedId);
    } else if (event.type === 'conversation.created' && event.payload.squadId) {
      await this.rooms.squadChatCreated(event.payload.squadId, event.payload.conversationId);
    } else if (event.type === 'squad.member_left') {
      await this.rooms.leftSquad(server, event.payload.userId, event.payload.squadId);
      // A member removed by an admin sees it on their squad page at once (and their other tabs after a leave).
      server.local.to(userRoom(event.payload.userId)).emit('squad-changed', { squadId: event.payload.squadId });
    }
  }
}
