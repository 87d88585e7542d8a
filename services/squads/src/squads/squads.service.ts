import { Inject, Injectable } from '@nestjs/common';
import { CreateSquadDto, SquadCategory, SquadView, UpdateSquadDto } from '@app/contracts';
import { EventBus } from '@app/bus';
import { AuthenticatedUser, cardFromToken, UserCardsReadModel } from '@app/platform';
import { Collection, Filter, newId, STORE, Store } from '@app/store';
import { JoinRequestsService } from '../join-requests/join-requests.service';
import { MembersService } from '../members/members.service';
import { SquadAccess } from '../members/squad-access.service';
import { SquadDoc, squadsCollection, squadSearchKey } from './squad.collection';
import { SquadPresenter } from './squad-presenter.service';

export const DEFAULT_CATEGORY: SquadCategory = 'General';
export const ONLY_ADMINS_UPDATE = 'Only squad admins can update the squad';
export const ONLY_ADMINS_DELETE = 'Only squad admins can delete the squad';

export interface DiscoverFilter {
  search?: string;
  category?: SquadCategory;
}

@Injectable()
export class SquadsService {
  private readonly squads: Collection<SquadDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly access: SquadAccess,
    private readonly members: MembersService,
    private readonly requests: JoinRequestsService,
    private readonly cards: UserCardsReadModel,
    private readonly presenter: SquadPresenter,
    private readonly bus: EventBus,
  ) {
    this.squads = store.collection(squadsCollection);
  }

  /** The creator becomes the first admin. */
  async create(dto: CreateSquadDto, user: AuthenticatedUser): Promise<SquadView> {
    await this.cards.ensureCard(cardFromToken(user));
    const id = newId();
    const now = new Date().toISOString();
    const category = dto.category ?? DEFAULT_CATEGORY;
    const description = dto.description ?? '';
    const squad = await this.bus.emitWith(
      {
        type: 'squad.created',
        payload: { squadId: id, name: dto.name, category, creatorId: user.id },
        key: id,
        actorId: user.id,
        proof: { collection: squadsCollection, match: { _id: id }, present: true },
      },
      () =>
        this.squads.insert({
          _id: id,
          name: dto.name,
          description,
          category,
          creator_id: user.id,
          created_at: now,
          updated_at: now,
          search_key: squadSearchKey.of({ name: dto.name, description }),
        }),
    );
    await this.members.add(squad, user.id, 'admin', user.id);
    return this.presenter.detail(squad, user.id);
  }

  async detail(id: string, viewerId: string): Promise<SquadView> {
    return this.presenter.detail(await this.access.squad(id), viewerId);
  }

  async discover(
    filter: DiscoverFilter,
    viewerId: string,
    skip: number,
    limit: number,
  ): Promise<{ items: SquadView[]; total: number }> {
    const query: Filter = {};
    if (filter.category) query.category = filter.category;
    if (filter.search) Object.assign(query, squadSearchKey.matching(filter.search));
    const [docs, total] = await Promise.all([
      this.squads.find(query, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.squads.count(query),
    ]);
    return { items: await this.presenter.cards(docs, viewerId), total };
  }

  async mine(viewerId: string, skip: number, limit: number): Promise<{ items: SquadView[]; total: number }> {
    const { items: memberships, total } = await this.members.membershipsOf(viewerId, skip, limit);
    const docs = memberships.length
      ? await this.squads.find({ _id: { $in: memberships.map((m) => m.squad_id) } })
      : [];
    const byId = new Map(docs.map((d) => [d._id, d]));
    const ordered = memberships.map((m) => byId.get(m.squad_id)).filter((d): d is SquadDoc => d !== undefined);
    return { items: await this.presenter.cards(ordered, viewerId), total };
  }

  /** A new name or category is announced (squad.updated): the squad chat and other copies of the name follow it. */
  async update(id: string, dto: UpdateSquadDto, user: AuthenticatedUser): Promise<SquadView> {
    const before = await this.access.squadFor(id, user.id, ['admin'], ONLY_ADMINS_UPDATE);
    const now = new Date().toISOString();
    const changes: Partial<SquadDoc> = { updated_at: now };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.description !== undefined) changes.description = dto.description;
    if (dto.category !== undefined) changes.category = dto.category;
    changes.search_key = squadSearchKey.of({ ...before, ...changes });
    const write = () => this.squads.findOneAndUpdate({ _id: id }, { $set: changes });
    const name = changes.name ?? before.name;
    const category = changes.category ?? before.category;
    // A description alone concerns no one else: no event.
    const renamed = name !== before.name || category !== before.category;
    const updated = renamed
      ? await this.bus.emitWith(
          {
            type: 'squad.updated',
            payload: { squadId: id, name, category, updated_at: now },
            key: id,
            actorId: user.id,
            proof: { collection: squadsCollection, match: { _id: id, updated_at: now }, present: true },
          },
          write,
        )
      : await write();
    if (!updated) return this.presenter.detail(await this.access.squad(id), user.id);
    await squadSearchKey.settle(this.squads, updated);
    return this.presenter.detail(updated, user.id);
  }

  /** Removes the squad, its memberships and its requests; squad.deleted tells the others. */
  async remove(id: string, user: AuthenticatedUser): Promise<void> {
    const squad = await this.access.squadFor(id, user.id, ['admin'], ONLY_ADMINS_DELETE);
    const memberIds = await this.members.memberIds(id);
    await this.bus.emitWith(
      {
        type: 'squad.deleted',
        payload: { squadId: id, name: squad.name, memberIds },
        key: id,
        actorId: user.id,
        proof: { collection: squadsCollection, match: { _id: id }, present: false },
      },
      () => this.removeWithItsRows(id),
    );
  }

  /** The squad, then its memberships and requests; 0 when another delete got there first. */
  private async removeWithItsRows(id: string): Promise<number> {
    const removed = await this.squads.deleteOne({ _id: id });
    if (removed === 0) return 0;
    await this.members.removeAll(id);
    await this.requests.removeAll(id);
    return removed;
  }
}
