import { Inject, Injectable } from '@nestjs/common';
import { SquadRole } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { SquadDoc, squadsCollection } from '../squads/squad.collection';
import { MemberDoc, membersCollection } from './member.collection';
import { SquadsException } from '../squads.errors';

export const SQUAD_NOT_FOUND = 'Squad not found';
export const MANAGER_ROLES: readonly SquadRole[] = ['admin', 'moderator'];

/** Loads a squad and answers "may this member do that here?". */
@Injectable()
export class SquadAccess {
  private readonly squads: Collection<SquadDoc>;
  private readonly members: Collection<MemberDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.squads = store.collection(squadsCollection);
    this.members = store.collection(membersCollection);
  }

  async squad(id: string): Promise<SquadDoc> {
    const squad = await this.squads.findById(id);
    if (!squad) throw new SquadsException('SQUAD_NOT_FOUND', SQUAD_NOT_FOUND);
    return squad;
  }

  async roleOf(squadId: string, userId: string): Promise<SquadRole | null> {
    return (await this.members.findOne({ squad_id: squadId, user_id: userId }))?.role ?? null;
  }

  /** The squad, if the member holds one of `roles` in it; 404 before 403. */
  async squadFor(id: string, userId: string, roles: readonly SquadRole[], refusal: string): Promise<SquadDoc> {
    const squad = await this.squad(id);
    const role = await this.roleOf(id, userId);
    if (!role || !roles.includes(role)) throw new SquadsException('SQUAD_ROLE_REQUIRED', refusal);
    return squad;
  }
}
