import { Inject, Injectable } from '@nestjs/common';
import { JoinRequestStatus, JoinRequestView, SquadView } from '@app/contracts';
import { EventBus } from '@app/bus';
import { AuthenticatedUser, BlocksReadModel, cardFromToken, UserCardsReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { MembersService } from '../members/members.service';
import { MANAGER_ROLES, SquadAccess } from '../members/squad-access.service';
import { JoinRequestDoc, joinRequestsCollection, pendingKey } from './join-request.collection';
import { SquadsException } from '../squads.errors';

export const ALREADY_MEMBER = 'You are already a member of this squad';
export const ALREADY_PENDING = 'You already have a pending request to join this squad';
export const BLOCKED_BY_ADMIN = 'You cannot request to join this squad: one of its admins has blocked you';
export const ONLY_MANAGERS_VIEW = 'Only squad admins and moderators can view join requests';
export const ONLY_MANAGERS_DECIDE = 'Only squad admins and moderators can approve or reject join requests';
export const REQUEST_NOT_FOUND = 'Join request not found';

type ViewerRequestStatus = SquadView['join_request_status'];

/** none -> pending -> approved (a member) or rejected -> pending again. */
@Injectable()
export class JoinRequestsService {
  private readonly requests: Collection<JoinRequestDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly access: SquadAccess,
    private readonly members: MembersService,
    private readonly cards: UserCardsReadModel,
    private readonly blocks: BlocksReadModel,
    private readonly bus: EventBus,
  ) {
    this.requests = store.collection(joinRequestsCollection);
  }

  async request(squadId: string, user: AuthenticatedUser, message: string | null | undefined): Promise<JoinRequestView> {
    const squad = await this.access.squad(squadId);
    if (await this.access.roleOf(squadId, user.id)) throw new SquadsException('ALREADY_MEMBER', ALREADY_MEMBER);
    const adminIds = await this.members.idsWithRole(squadId, ['admin']);
    if (await this.blocks.isBlockedByAny(user.id, adminIds)) throw new SquadsException('BLOCKED_BY_ADMIN', BLOCKED_BY_ADMIN);
    await this.cards.ensureCard(cardFromToken(user));

    const kept = message?.trim() ? message.trim() : null;
    const requestId = newId();
    const doc = await this.bus.emitWith(
      {
        type: 'squad.join_requested',
        payload: {
          squadId,
          squadName: squad.name,
          requestId,
          userId: user.id,
          message: kept,
          managerIds: await this.members.idsWithRole(squadId, MANAGER_ROLES),
        },
        key: squadId,
        actorId: user.id,
        proof: { collection: joinRequestsCollection, match: { _id: requestId }, present: true },
      },
      () => this.insertPending(requestId, squadId, user.id, kept),
    );
    return (await this.views([doc]))[0];
  }

  async list(
    squadId: string,
    viewer: AuthenticatedUser,
    status: JoinRequestStatus,
    skip: number,
    limit: number,
  ): Promise<{ items: JoinRequestView[]; total: number }> {
    await this.access.squadFor(squadId, viewer.id, MANAGER_ROLES, ONLY_MANAGERS_VIEW);
    const filter = { squad_id: squadId, status };
    const [docs, total] = await Promise.all([
      this.requests.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.requests.count(filter),
    ]);
    return { items: await this.views(docs), total };
  }

  async decide(
    squadId: string,
    requestId: string,
    manager: AuthenticatedUser,
    action: 'approve' | 'reject',
  ): Promise<JoinRequestView> {
    const squad = await this.access.squadFor(squadId, manager.id, MANAGER_ROLES, ONLY_MANAGERS_DECIDE);
    const existing = await this.requests.findOne({ _id: requestId, squad_id: squadId });
    if (!existing) throw new SquadsException('JOIN_REQUEST_NOT_FOUND', REQUEST_NOT_FOUND);
    const decision = action === 'approve' ? 'approved' : 'rejected';
    const decidedAt = new Date().toISOString();
    const managerIds = await this.members.idsWithRole(squadId, MANAGER_ROLES);
    const decided = await this.bus.emitWith(
      {
        type: 'squad.join_decided',
        payload: { squadId, squadName: squad.name, requestId, userId: existing.user_id, decision, decidedBy: manager.id, managerIds },
        key: squadId,
        actorId: manager.id,
        // A request leaves "pending" once, so its decision marks this change.
        proof: {
          collection: joinRequestsCollection,
          match: { _id: requestId, status: decision, decided_at: decidedAt },
          present: true,
        },
      },
      async () => {
        // Guarded on "still pending": two managers deciding at once cannot both win.
        const row = await this.requests.findOneAndUpdate(
          { _id: requestId, squad_id: squadId, status: 'pending' },
          { $set: { status: decision, decided_at: decidedAt, decided_by: manager.id }, $unset: { pending_key: true } },
        );
        // The membership joins before the decision is announced, as it did before.
        if (row && decision === 'approved') await this.members.add(squad, row.user_id, 'member', manager.id);
        return row;
      },
    );
    if (!decided) throw new SquadsException('JOIN_REQUEST_DECIDED', `This join request has already been ${existing.status}`);
    return (await this.views([decided]))[0];
  }

  /** What a non-member sees on each squad: the latest request if pending or rejected. */
  async viewerStatuses(userId: string, squadIds: readonly string[]): Promise<Map<string, ViewerRequestStatus>> {
    if (squadIds.length === 0) return new Map();
    const docs = await this.requests.find(
      { user_id: userId, squad_id: { $in: [...squadIds] } },
      { sort: { created_at: -1, _id: -1 } },
    );
    const latest = new Map<string, ViewerRequestStatus>();
    for (const doc of docs) {
      if (latest.has(doc.squad_id)) continue;
      latest.set(doc.squad_id, doc.status === 'approved' ? null : doc.status);
    }
    return latest;
  }

  async removeAll(squadId: string): Promise<void> {
    await this.requests.deleteMany({ squad_id: squadId });
  }

  private async insertPending(id: string, squadId: string, userId: string, message: string | null): Promise<JoinRequestDoc> {
    try {
      return await this.requests.insert({
        _id: id,
        squad_id: squadId,
        user_id: userId,
        status: 'pending',
        message,
        created_at: new Date().toISOString(),
        decided_at: null,
        decided_by: null,
        pending_key: pendingKey(squadId, userId),
      });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new SquadsException('JOIN_REQUEST_PENDING', ALREADY_PENDING);
      throw err;
    }
  }

  private async views(docs: readonly JoinRequestDoc[]): Promise<JoinRequestView[]> {
    const cards = await this.cards.cardsById(docs.map((d) => d.user_id));
    return docs.map((d) => {
      const card = cards.get(d.user_id);
      return {
        id: d._id,
        squad_id: d.squad_id,
        status: d.status,
        message: d.message,
        created_at: d.created_at,
        decided_at: d.decided_at,
        user: {
          id: d.user_id,
          display_name: card?.display_name ?? 'Unknown member',
          username: card?.username ?? 'unknown',
          profile_image_url: card?.profile_image_url ?? null,
        },
      };
    });
  }
}
