import { Inject, Injectable } from '@nestjs/common';
import { SquadMemberView, SquadRole, SquadStats } from '@app/contracts';
import { EventBus } from '@app/bus';
import { AuthenticatedUser, UserCardsReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { SquadDoc } from '../squads/squad.collection';
import { MemberDoc, membersCollection } from './member.collection';
import { MANAGER_ROLES, SquadAccess } from './squad-access.service';
import { SquadsException } from '../squads.errors';

export const ADMINS_CANNOT_LEAVE = 'Admins cannot leave the squad';
export const NOT_A_MEMBER = 'You are not a member of this squad';
export const MEMBER_NOT_FOUND = 'Member not found';
export const LAST_ADMIN = 'A squad needs at least one admin: make another member admin first';
export const ADMIN_NOT_REMOVABLE = 'Admins cannot be removed; change their role first';
export const ONLY_ADMINS_MANAGE_MEMBERS = 'Only squad admins can manage members';

/** Memberships and roles. A squad always keeps at least one admin. */
@Injectable()
export class MembersService {
  private readonly members: Collection<MemberDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly access: SquadAccess,
    private readonly cards: UserCardsReadModel,
    private readonly bus: EventBus,
  ) {
    this.members = store.collection(membersCollection);
  }

  /** Idempotent: joining twice keeps the first membership and announces it once. */
  async add(squad: SquadDoc, userId: string, role: SquadRole, actorId: string): Promise<MemberDoc> {
    const id = newId();
    const joinedAt = new Date().toISOString();
    try {
      return await this.bus.emitWith(
        {
          type: 'squad.member_joined',
          payload: { squadId: squad._id, squadName: squad.name, userId, role, joined_at: joinedAt },
          key: squad._id,
          actorId,
          proof: { collection: membersCollection, match: { _id: id }, present: true },
        },
        () => this.members.insert({ _id: id, squad_id: squad._id, user_id: userId, role, joined_at: joinedAt }),
      );
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.members.findOne({ squad_id: squad._id, user_id: userId });
      if (!existing) throw err;
      return existing;
    }
  }

  async leave(squadId: string, user: AuthenticatedUser): Promise<void> {
    const squad = await this.access.squad(squadId);
    const member = await this.members.findOne({ squad_id: squadId, user_id: user.id });
    if (!member) throw new SquadsException('NOT_A_MEMBER', NOT_A_MEMBER);
    if (member.role === 'admin') throw new SquadsException('ADMINS_CANNOT_LEAVE', ADMINS_CANNOT_LEAVE);
    await this.drop(squad, member, 'left', user.id);
  }

  async changeRole(squadId: string, actor: AuthenticatedUser, targetId: string, role: SquadRole): Promise<SquadMemberView> {
    const squad = await this.access.squadFor(squadId, actor.id, ['admin'], ONLY_ADMINS_MANAGE_MEMBERS);
    const target = await this.members.findOne({ squad_id: squad._id, user_id: targetId });
    if (!target) throw new SquadsException('MEMBER_NOT_FOUND', MEMBER_NOT_FOUND);
    if (target.role === role) return this.view(target);
    await this.bus.emitWith(
      {
        type: 'squad.member_role_changed',
        payload: { squadId: squad._id, squadName: squad.name, userId: targetId, role, changedBy: actor.id, managerIds: await this.managersAfter(squad._id, targetId, role) },
        key: squad._id,
        actorId: actor.id,
        proof: { collection: membersCollection, match: { _id: target._id, role }, present: true },
      },
      async () => {
        if (target.role === 'admin' && role !== 'admin') await this.demoteAdmin(target, role);
        else await this.members.updateOne({ _id: target._id }, { $set: { role } });
        return true;
      },
    );
    return this.view({ ...target, role });
  }

  /** The squad's admins and moderators once `userId` holds `role`. */
  private async managersAfter(squadId: string, userId: string, role: SquadRole): Promise<string[]> {
    const others = (await this.idsWithRole(squadId)).filter((id) => id !== userId);
    return MANAGER_ROLES.includes(role) ? [...others, userId] : others;
  }

  async remove(squadId: string, actor: AuthenticatedUser, targetId: string): Promise<void> {
    const squad = await this.access.squadFor(squadId, actor.id, ['admin'], ONLY_ADMINS_MANAGE_MEMBERS);
    const target = await this.members.findOne({ squad_id: squad._id, user_id: targetId });
    if (!target) throw new SquadsException('MEMBER_NOT_FOUND', MEMBER_NOT_FOUND);
    if (target.user_id === actor.id) throw new SquadsException('ADMINS_CANNOT_LEAVE', ADMINS_CANNOT_LEAVE);
    if (target.role === 'admin') throw new SquadsException('ADMIN_NOT_REMOVABLE', ADMIN_NOT_REMOVABLE);
    await this.drop(squad, target, 'removed', actor.id);
  }

  async stats(userId: string): Promise<SquadStats> {
    const [total_squads, admin_squads, moderator_squads] = await Promise.all([
      this.members.count({ user_id: userId }),
      this.members.count({ user_id: userId, role: 'admin' }),
      this.members.count({ user_id: userId, role: 'moderator' }),
    ]);
    return { total_squads, admin_squads, moderator_squads };
  }

  /** The member's memberships, newest first. */
  async membershipsOf(userId: string, skip: number, limit: number): Promise<{ items: MemberDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      this.members.find({ user_id: userId }, { sort: { joined_at: -1, _id: -1 }, skip, limit }),
      this.members.count({ user_id: userId }),
    ]);
    return { items, total };
  }

  async viewerMemberships(userId: string, squadIds: readonly string[]): Promise<Map<string, SquadRole>> {
    if (squadIds.length === 0) return new Map();
    const docs = await this.members.find({ user_id: userId, squad_id: { $in: [...squadIds] } });
    return new Map(docs.map((d) => [d.squad_id, d.role]));
  }

  /** Members in joining order; `limit` for previews. */
  async list(squadId: string, limit?: number): Promise<MemberDoc[]> {
    return this.members.find({ squad_id: squadId }, { sort: { joined_at: 1, _id: 1 }, limit });
  }

  count(squadId: string): Promise<number> {
    return this.members.count({ squad_id: squadId });
  }

  async idsWithRole(squadId: string, roles: readonly SquadRole[] = MANAGER_ROLES): Promise<string[]> {
    const docs = await this.members.find({ squad_id: squadId, role: { $in: [...roles] } });
    return docs.map((d) => d.user_id);
  }

  async memberIds(squadId: string): Promise<string[]> {
    return (await this.list(squadId)).map((m) => m.user_id);
  }

  async removeAll(squadId: string): Promise<void> {
    await this.members.deleteMany({ squad_id: squadId });
  }

  async views(members: readonly MemberDoc[]): Promise<SquadMemberView[]> {
    const cards = await this.cards.cardsById(members.map((m) => m.user_id));
    return members.map((m) => {
      const card = cards.get(m.user_id);
      return {
        id: m.user_id,
        username: card?.username ?? 'unknown',
        display_name: card?.display_name ?? 'Unknown member',
        profile_image_url: card?.profile_image_url ?? null,
        role: m.role,
        joined_at: m.joined_at,
      };
    });
  }

  private async view(member: MemberDoc): Promise<SquadMemberView> {
    const [view] = await this.views([member]);
    return view;
  }

  /**
   * Demotes only while another admin remains. The guarded write makes a lone admin's demotion a
   * no-op; a recount undoes the rare race where two admins demote each other at once.
   */
  private async demoteAdmin(target: MemberDoc, role: SquadRole): Promise<void> {
    const otherAdmins = await this.members.count({ squad_id: target.squad_id, role: 'admin', _id: { $ne: target._id } });
    if (otherAdmins === 0) throw new SquadsException('LAST_ADMIN', LAST_ADMIN);
    await this.members.updateOne({ _id: target._id, role: 'admin' }, { $set: { role } });
    if ((await this.members.count({ squad_id: target.squad_id, role: 'admin' })) === 0) {
      await this.members.updateOne({ _id: target._id }, { $set: { role: 'admin' } });
      throw new SquadsException('LAST_ADMIN', LAST_ADMIN);
    }
  }

  private async drop(squad: SquadDoc, member: MemberDoc, reason: 'left' | 'removed', actorId: string): Promise<void> {
    await this.bus.emitWith(
      {
        type: 'squad.member_left',
        payload: { squadId: squad._id, squadName: squad.name, userId: member.user_id, reason },
        key: squad._id,
        actorId,
        proof: { collection: membersCollection, match: { _id: member._id }, present: false },
      },
      // An admin is never dropped here (even one promoted since the read), so the admin count cannot reach 0.
      () => this.members.deleteOne({ _id: member._id, role: { $ne: 'admin' } }),
    );
  }
}
