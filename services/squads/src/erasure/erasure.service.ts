import { Inject, Injectable } from '@nestjs/common';
import { EventBus } from '@app/bus';
import { Collection, STORE, Store } from '@app/store';
import { JoinRequestDoc, joinRequestsCollection } from '../join-requests/join-request.collection';
import { MemberDoc, membersCollection } from '../members/member.collection';
import { SquadDoc, squadsCollection } from '../squads/squad.collection';

/**
 * Takes a deleted member out of every squad (issue 20 §5). A squad they alone administered gets
 * its longest-standing other member as admin first; a squad left empty is closed (squad.deleted).
 * Every step can run again after a crash: a membership goes only after its squad has an admin.
 */
@Injectable()
export class ErasureService {
  private readonly squads: Collection<SquadDoc>;
  private readonly members: Collection<MemberDoc>;
  private readonly requests: Collection<JoinRequestDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly bus: EventBus,
  ) {
    this.squads = store.collection(squadsCollection);
    this.members = store.collection(membersCollection);
    this.requests = store.collection(joinRequestsCollection);
  }

  async erase(userId: string): Promise<void> {
    for (const membership of await this.members.find({ user_id: userId })) await this.leave(membership);
    await this.requests.deleteMany({ user_id: userId });
  }

  private async leave(membership: MemberDoc): Promise<void> {
    const squad = await this.squads.findById(membership.squad_id);
    // Closed by an earlier run that stopped before its rows went.
    if (!squad) return this.dropRowsOf(membership.squad_id);
    if (membership.role === 'admin' && !(await this.hasOtherAdmin(membership))) {
      const [heir] = await this.members.find({ squad_id: squad._id, user_id: { $ne: membership.user_id } }, { sort: { joined_at: 1 }, limit: 1 });
      if (!heir) return this.close(squad);
      await this.members.updateOne({ _id: heir._id }, { $set: { role: 'admin' } });
    }
    await this.members.deleteOne({ _id: membership._id });
  }

  private async hasOtherAdmin(membership: MemberDoc): Promise<boolean> {
    return (await this.members.count({ squad_id: membership.squad_id, role: 'admin', user_id: { $ne: membership.user_id } })) > 0;
  }

  /** No one else is left: the squad goes as if deleted, and its chat closes. No other member to tell. */
  private async close(squad: SquadDoc): Promise<void> {
    await this.bus.emitWith(
      {
        type: 'squad.deleted',
        payload: { squadId: squad._id, name: squad.name, memberIds: [] },
        key: squad._id,
        actorId: null,
        proof: { collection: squadsCollection, match: { _id: squad._id }, present: false },
      },
      () => this.squads.deleteOne({ _id: squad._id }),
    );
    await this.dropRowsOf(squad._id);
  }

  private async dropRowsOf(squadId: string): Promise<void> {
    await this.members.deleteMany({ squad_id: squadId });
    await this.requests.deleteMany({ squad_id: squadId });
  }
}
