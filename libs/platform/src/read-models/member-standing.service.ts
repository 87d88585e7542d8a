import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AnyEventEnvelope, eventProblems, EventPayloads, EventType, isEventEnvelope, Role } from '@app/contracts';
import { BUS_TRANSPORT, BusTransport, Subscription } from '@app/bus';
import { Collection, STORE, Store } from '@app/store';
import { MemberStandingDoc, memberStandingCollection } from './member-standing.collection';

/** The events the standing is kept from. */
export const STANDING_EVENTS = [
  'user.deleted',
  'auth.sessions_revoked',
  'moderation.role_changed',
  'moderation.member_suspended',
  'user.registered',
] as const satisfies readonly EventType[];
type StandingEvent = Extract<AnyEventEnvelope, { type: (typeof STANDING_EVENTS)[number] }>;

/**
 * Events that add something a member did, with the members (beside the actor) they add
 * something about. A service drops one that names a deleted member: it arrived after that
 * service's erasure ran and would leave a row behind (a late like, comment, follow, message,
 * squad join; issue 31 §2). Removals, user.deleted, sessions and moderation always pass.
 */
const ADDS: { [T in EventType]?: (payload: EventPayloads[T]) => string[] } = {
  'user.registered': (p) => [p.userId],
  'user.updated': (p) => [p.userId],
  'user.settings_updated': (p) => [p.userId],
  'follow.created': (p) => [p.followerId, p.followeeId],
  'follow.requested': (p) => [p.followerId, p.followeeId],
  'follow.accepted': (p) => [p.followerId, p.followeeId],
  'block.created': (p) => [p.blockerId, p.blockedId],
  'mute.created': (p) => [p.muterId, p.mutedId],
  'product.created': () => [],
  'review.created': (p) => [p.authorId],
  'review.updated': () => [],
  'review.liked': (p) => [p.userId],
  'comment.created': (p) => [p.userId],
  'squad.created': (p) => [p.creatorId],
  'squad.updated': () => [],
  'squad.join_requested': (p) => [p.userId],
  'squad.member_joined': (p) => [p.userId],
  'conversation.created': (p) => [p.createdBy],
  'message.sent': (p) => [p.senderId],
  'message.edited': (p) => [p.senderId],
  'message.reaction_changed': (p) => [p.userId],
  'conversation.read': (p) => [p.userId],
};

/**
 * Every service's copy of who deleted their account, each member's session cut-off and site role
 * (issue 31 §1, §2), held in memory so the per-request and per-event checks cost no store query: loaded at boot from `member_standing`, kept by the service's own consumer group (which
 * also writes the row, so a restart or a replica started later knows) and by a broadcast
 * subscription of this process (every replica learns at once, not only the one whose group
 * handled the event).
 */
@Injectable()
export class MemberStanding implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MemberStanding.name);
  private readonly rows: Collection<MemberStandingDoc>;
  private readonly deleted = new Set<string>();
  private readonly versions = new Map<string, number>();
  private readonly roles = new Map<string, Role>();
  /** Suspended members: until when (ms). */
  private readonly suspensions = new Map<string, number>();
  private subscription?: Subscription;

  constructor(
    @Inject(STORE) store: Store,
    @Inject(BUS_TRANSPORT) private readonly transport: BusTransport,
  ) {
    this.rows = store.collection(memberStandingCollection);
  }

  /** Listens first, then reads the rows: an event between the two is in one or the other. */
  async onApplicationBootstrap(): Promise<void> {
    const name = `standing-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    this.subscription = await this.transport.subscribe({
      group: `broadcast:${name}`,
      consumer: name,
      types: STANDING_EVENTS,
      handler: async (event) => this.learn(event),
    });
    for (const row of await this.rows.find({})) this.remember(row);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }

  isDeleted(userId: string): boolean {
    return this.deleted.has(userId);
  }

  /** Tokens with a lower `ver` were revoked (logout, password change, suspension, deletion). */
  sessionVersion(userId: string): number {
    return this.versions.get(userId) ?? 0;
  }

  /**
   * Suspended now. Learnt from the moderator's own event, not from auth's revocation that follows
   * it, so a suspension is in force on every route once its request returned (issue 46 case 3).
   */
  isSuspended(userId: string, now = Date.now()): boolean {
    return (this.suspensions.get(userId) ?? 0) > now;
  }

  /** The role auth last announced, or undefined when it announced none (the token's then stands). */
  roleOf(userId: string): Role | undefined {
    return this.roles.get(userId);
  }

  /** Whether `event` adds something for a member who deleted their account (see ADDS). */
  isLateFromDeleted(event: AnyEventEnvelope): boolean {
    if (this.deleted.size === 0) return false;
    const named = (ADDS[event.type] as ((payload: unknown) => string[]) | undefined)?.(event.payload);
    if (!named) return false;
    return [event.actorId, ...named].some((id) => id !== null && this.deleted.has(id));
  }

  /** From the service's own consumer group: the row first, so a restart knows it too. Idempotent. */
  async record(event: StandingEvent): Promise<void> {
    const change = changeOf(event);
    if (!change) return;
    const { userId, ...fields } = change;
    if (fields.session_version !== undefined) {
      // Versions only grow: a redelivered older revocation changes nothing.
      const older = { _id: userId, $or: [{ session_version: { $exists: false } }, { session_version: { $lt: fields.session_version } }] };
      const moved = await this.rows.updateOne(older, { $set: fields });
      if (moved.matched === 0 && !(await this.rows.findById(userId))) await this.rows.updateOne({ _id: userId }, { $set: fields }, { upsert: true });
    } else {
      await this.rows.updateOne({ _id: userId }, { $set: fields }, { upsert: true });
    }
    this.remember({ _id: userId, ...fields });
  }

  /** From the broadcast: memory only (the group's handler writes the row). */
  private async learn(event: AnyEventEnvelope): Promise<void> {
    if (!isEventEnvelope(event) || !(STANDING_EVENTS as readonly string[]).includes(event.type) || eventProblems(event).length > 0) {
      this.logger.error(`Ignored an invalid ${String((event as { type?: unknown }).type)} on the standing broadcast`);
      return;
    }
    const change = changeOf(event as StandingEvent);
    if (change) {
      const { userId, ...fields } = change;
      this.remember({ _id: userId, ...fields });
    }
  }

  private remember(row: MemberStandingDoc): void {
    if (row.deleted) this.deleted.add(row._id);
    if (row.session_version !== undefined && row.session_version > this.sessionVersion(row._id)) this.versions.set(row._id, row.session_version);
    if (row.role) this.roles.set(row._id, row.role);
    const until = row.suspended_until ? Date.parse(row.suspended_until) : 0;
    if (until > (this.suspensions.get(row._id) ?? 0)) this.suspensions.set(row._id, until);
  }
}

/** What a standing event says about its member; undefined for one that says nothing (a member's registration). */
function changeOf(event: StandingEvent): ({ userId: string } & Omit<MemberStandingDoc, '_id'>) | undefined {
  const { userId } = event.payload;
  switch (event.type) {
    case 'user.deleted':
      return { userId, deleted: true };
    case 'auth.sessions_revoked':
      return { userId, session_version: event.payload.version };
    case 'moderation.role_changed':
      return { userId, role: event.payload.role };
    case 'moderation.member_suspended':
      return { userId, suspended_until: event.payload.until };
    case 'user.registered':
      // Staff from the start (the first account, ADMIN_EMAILS); a member's token already says member.
      return event.payload.role && event.payload.role !== 'member' ? { userId, role: event.payload.role } : undefined;
  }
}
