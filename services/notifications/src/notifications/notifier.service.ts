import { Inject, Injectable } from '@nestjs/common';
import { NotificationType } from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { BlocksReadModel, MutesReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { MemberFacts, MembersService } from '../read-models/members.service';
import { DecidedRequestDoc, decidedRequestsCollection } from './decided-request.collection';
import { EmailOutbox } from './email-outbox.service';
import { NotificationDoc, notificationsCollection } from './notification.collection';
import { toNotificationView } from './notification.view';

/** How long a decided join request is remembered (see `DecidedRequestDoc`). */
const DECISIONS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** One notification an event asks for. */
export interface NotificationDraft {
  eventId: string;
  type: NotificationType;
  recipientId: string;
  actorId: string;
  subjectId: string;
  /** Squad notifications: the squad and its name as the event told it (squad.updated renames it later). */
  squadId?: string;
  squadName?: string;
  /** review_hidden: the moderator's reason. */
  reason?: string;
  /** Of an imported event (a follow moved over, not news): in the app, never emailed. */
  imported?: boolean;
}

/**
 * Turns events into notifications: nobody hears of their own action, from someone a block
 * stands between, from someone they muted or to or from a deleted member (never created, so never pushed or emailed); a repeat refreshes the one notification instead of adding another.
 */
@Injectable()
export class Notifier {
  private readonly notifications: Collection<NotificationDoc>;
  private readonly decided: Collection<DecidedRequestDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly members: MembersService,
    private readonly blocks: BlocksReadModel,
    private readonly mutes: MutesReadModel,
    private readonly email: EmailOutbox,
    private readonly bus: EventBus,
  ) {
    this.notifications = store.collection(notificationsCollection);
    this.decided = store.collection(decidedRequestsCollection);
  }

  /**
   * One read of both members (cards, preferences, standing), then the block and the mute; the
   * notification's own row and event follow (issue 28 §4: a like's handling in few statements).
   */
  async notify(draft: NotificationDraft): Promise<void> {
    if (draft.recipientId === draft.actorId) return;
    const members = await this.members.facts([draft.actorId, draft.recipientId]);
    if (members.get(draft.actorId)?.deleted || members.get(draft.recipientId)?.deleted) return;
    if (await this.blocks.blockedEitherWay(draft.recipientId, [draft.actorId])) return;
    if (await this.mutes.isMuted(draft.recipientId, draft.actorId)) return;
    await this.record(draft, members);
  }

  /**
   * A moderator's decision about the member's own content: told whatever blocks or mutes stand
   * between them. `actorId` is the recipient: the notification does not name the moderator.
   */
  async notifyModeration(draft: NotificationDraft): Promise<void> {
    await this.record(draft);
  }

  /**
   * One action told to many (a review to the followers, a join request to the managers): as
   * `notifyMany` for each recipient.
   */
  async notifyAll(base: Omit<NotificationDraft, 'recipientId'>, recipientIds: string[]): Promise<void> {
    await this.notifyMany([...new Set(recipientIds)].map((recipientId) => ({ ...base, recipientId })));
  }

  /**
   * Many notifications (of one event or of a run of events), each decided as `notify` decides one.
   * The members, blocks, mutes and existing notifications of them all are read once each; the new
   * notifications go in one insert with their events' outbox rows (a store with transactions),
   * their emails in one more. A repeat of a notification already in the list refreshes it after.
   */
  async notifyMany(drafts: NotificationDraft[]): Promise<void> {
    const others = drafts.filter((draft) => draft.recipientId !== draft.actorId);
    if (others.length === 0) return;
    const members = await this.members.facts(others.flatMap((draft) => [draft.actorId, draft.recipientId]));
    // An event of a member's that arrives after their deletion tells no one.
    const living = others.filter((draft) => !members.get(draft.actorId)?.deleted && !members.get(draft.recipientId)?.deleted);
    const pairs = living.map((draft) => [draft.recipientId, draft.actorId] as const);
    const [blocked, muted] = await Promise.all([this.blocks.blockedPairs(pairs), this.mutes.mutedPairs(pairs)]);
    const told = living.filter((draft) => !blocked(draft.recipientId, draft.actorId) && !muted(draft.recipientId, draft.actorId));
    if (!this.bus.transactional) {
      for (const draft of told) await this.record(draft, members);
      return;
    }
    const found = told.length ? await this.notifications.find({ dedupe_key: { $in: [...new Set(told.map(dedupeKeyOf))] } }) : [];
    const existing = new Map(found.map((doc) => [doc.dedupe_key, doc]));
    const fresh: NotificationDraft[] = [];
    const repeats: NotificationDraft[] = [];
    const seen = new Set<string>();
    for (const draft of told) {
      const key = dedupeKeyOf(draft);
      const doc = existing.get(key);
      if (seen.has(key)) repeats.push(draft);
      else if (doc) await this.refresh(doc, draft, members);
      else fresh.push(draft);
      seen.add(key);
    }
    await this.insertAll(fresh, members);
    for (const draft of repeats) await this.record(draft, members);
  }

  /** squad.updated: notifications about the squad show its new name (the newest rename wins). */
  async squadRenamed(squadId: string, name: string, updatedAt: string): Promise<void> {
    await this.notifications.updateMany(
      { squad_id: squadId, $or: [{ squad_name_at: { $exists: false } }, { squad_name_at: { $lte: updatedAt } }] },
      { $set: { squad_name: name, squad_name_at: updatedAt } },
    );
  }

  /**
   * A join request told to the squad's managers, unless it was decided already. Decided while they
   * were told, its notices go again: the decision's handler may have cleared them before they were
   * written, and it records the decision before it clears, so one of the two sees the other.
   */
  async joinRequested(base: Omit<NotificationDraft, 'recipientId'> & { squadId: string }, managerIds: string[]): Promise<void> {
    if (await this.decided.findById(base.subjectId)) return;
    await this.notifyAll(base, managerIds);
    if (await this.decided.findById(base.subjectId)) await this.clearJoinRequest(base.squadId, base.subjectId);
  }

  /** A decided join request: recorded, then the managers' "wants to join" notifications about it go. */
  async joinRequestDecided(squadId: string, requestId: string, decidedAt: string): Promise<void> {
    await this.decided.updateOne({ _id: requestId }, { $set: { squad_id: squadId, decided_at: decidedAt } }, { upsert: true });
    await this.clearJoinRequest(squadId, requestId);
    await this.decided.deleteMany({ decided_at: { $lt: new Date(Date.parse(decidedAt) - DECISIONS_KEPT_MS).toISOString() } });
  }

  /** By squad: indexed. */
  private async clearJoinRequest(squadId: string, requestId: string): Promise<void> {
    await this.notifications.deleteMany({ squad_id: squadId, type: 'squad_join_request', subject_id: requestId });
  }

  /** After a block neither member keeps notifications caused by the other. */
  async forgetBetween(a: string, b: string): Promise<void> {
    await this.notifications.deleteMany({
      $or: [
        { recipient_id: a, actor_id: b },
        { recipient_id: b, actor_id: a },
      ],
    });
  }

  /** `members`: what `MembersService.facts` said of the recipient and the actor, when the caller has read it. */
  private async record(draft: NotificationDraft, members?: Map<string, MemberFacts>): Promise<void> {
    const dedupe_key = dedupeKeyOf(draft);
    const existing = await this.notifications.findOne({ dedupe_key });
    if (existing) await this.refresh(existing, draft, members);
    else await this.insert(draft, dedupe_key, members);
  }

  /**
   * A repeat moves the notification to the top, unread. It is news (pushed, emailed) only
   * when it had been read: an unread one is already on the recipient's screen and count.
   */
  private async refresh(existing: NotificationDoc, draft: NotificationDraft, members?: Map<string, MemberFacts>): Promise<void> {
    if (existing.event_id === draft.eventId) return;
    const fields = {
      is_read: false,
      created_at: toldAt(),
      event_id: draft.eventId,
      squad_name: draft.squadName ?? existing.squad_name,
      ...(draft.squadId && { squad_id: draft.squadId }),
    };
    // Guarded by the event it had: of two deliveries at once, one refreshes it.
    const guard = { _id: existing._id, event_id: existing.event_id };
    if (existing.is_read) await this.announce({ ...existing, ...fields }, () => this.notifications.findOneAndUpdate(guard, { $set: fields }), draft, members);
    // Unread, it is announced already: nothing reads the change back, so it goes with the commit.
    else await this.notifications.updateWithCommit(guard, { $set: fields });
  }

  private async insert(draft: NotificationDraft, dedupe_key: string, members?: Map<string, MemberFacts>): Promise<void> {
    const doc = docOf(draft, dedupe_key);
    await this.announce(
      doc,
      async () => {
        try {
          return await this.notifications.insert(doc);
        } catch (err) {
          // The same notification was stored by a concurrent delivery: it announces it.
          if (err instanceof DuplicateKeyError) return null;
          throw err;
        }
      },
      draft,
      members,
    );
  }

  /**
   * New notifications of one fan-out: one insert of the rows, one of their events' outbox rows
   * (`EventBus.emitAllWith`), then their emails in one more. Should another delivery have stored one of them
   * meanwhile, the insert rolls back and each goes on its own, as a single notification does.
   */
  private async insertAll(drafts: NotificationDraft[], members: Map<string, MemberFacts>): Promise<void> {
    if (drafts.length === 0) return;
    if (drafts.length === 1) return this.insert(drafts[0], dedupeKeyOf(drafts[0]), members);
    const docs = drafts.map((draft) => docOf(draft, dedupeKeyOf(draft)));
    const told = docs.map((doc) => this.told(doc, members));
    try {
      await this.bus.emitAllWith(
        told.map((t) => t.event),
        async () => (await this.notifications.insertMany(docs)).length,
      );
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const draft of drafts) await this.record(draft, members);
      return;
    }
    const emailed = docs.flatMap((doc, i) => (drafts[i].imported ? [] : [{ recipient: told[i].recipient, doc, view: told[i].notification }]));
    await this.email.queueMany(emailed);
  }

  /**
   * Writes `doc` (as `change` leaves it) with its notification.created, which the gateway
   * pushes over the socket unless the recipient turned push off; then queues its email, unless `draft` was imported.
   */
  private async announce(
    doc: NotificationDoc,
    change: () => Promise<NotificationDoc | null>,
    draft: NotificationDraft,
    members?: Map<string, MemberFacts>,
  ): Promise<void> {
    const known = members?.has(doc.recipient_id) && members.has(doc.actor_id) ? members : await this.members.facts([doc.recipient_id, doc.actor_id]);
    const { event, recipient, notification } = this.told(doc, known);
    const stored = await this.bus.emitWith(event, change);
    if (stored && !draft.imported) await this.email.queue(recipient, stored, notification);
  }

  /** The notification.created of `doc` and whom it tells. */
  private told(doc: NotificationDoc, members: Map<string, MemberFacts>) {
    const recipient = (members.get(doc.recipient_id) as MemberFacts).recipient;
    const notification = toNotificationView(doc, members.get(doc.actor_id)?.card ?? null, recipient.language);
    const event: PlannedEvent<'notification.created'> = {
      type: 'notification.created',
      payload: { notificationId: doc._id, recipientId: doc.recipient_id, push: recipient.push, notification },
      key: doc.recipient_id,
      actorId: doc.actor_id,
      // Each event leaves its own id on the notification it created or refreshed.
      proof: { collection: notificationsCollection, match: { _id: doc._id, event_id: doc.event_id }, present: true },
    };
    return { event, recipient, notification };
  }
}

let lastToldAt = 0;

/**
 * The time a notification is told (created or refreshed), never the same millisecond twice in a
 * process: a run of events handled at once (a bulk import's) tells them within one millisecond,
 * and a member's list, newest first, must still show them in the order they were told.
 */
function toldAt(): string {
  lastToldAt = Math.max(Date.now(), lastToldAt + 1);
  return new Date(lastToldAt).toISOString();
}

function dedupeKeyOf(draft: NotificationDraft): string {
  return [draft.type, draft.actorId, draft.subjectId, draft.recipientId].join(':');
}

function docOf(draft: NotificationDraft, dedupe_key: string): NotificationDoc {
  return {
    _id: newId(),
    recipient_id: draft.recipientId,
    type: draft.type,
    actor_id: draft.actorId,
    subject_id: draft.subjectId,
    squad_name: draft.squadName ?? null,
    ...(draft.squadId && { squad_id: draft.squadId }),
    ...(draft.reason && { reason: draft.reason }),
    dedupe_key,
    event_id: draft.eventId,
    is_read: false,
    created_at: toldAt(),
  };
}
