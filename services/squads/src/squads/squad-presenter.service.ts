import { Injectable } from '@nestjs/common';
import { SquadView } from '@app/contracts';
import { UserCardsReadModel } from '@app/platform';
import { JoinRequestsService } from '../join-requests/join-requests.service';
import { MembersService } from '../members/members.service';
import { WeekActivityReadModel } from '../read-models/week-activity.service';
import { SquadDoc } from './squad.collection';

/** Spec part 2 §9: cards show 3 member avatars. */
export const SAMPLE_MEMBERS = 3;

/** Turns squads into the shape the screens read, as seen by one viewer. */
@Injectable()
export class SquadPresenter {
  constructor(
    private readonly members: MembersService,
    private readonly requests: JoinRequestsService,
    private readonly userCards: UserCardsReadModel,
    private readonly activity: WeekActivityReadModel,
  ) {}

  async cards(squads: readonly SquadDoc[], viewerId: string): Promise<SquadView[]> {
    const ids = squads.map((s) => s._id);
    const [roles, statuses, counts, samples] = await Promise.all([
      this.members.viewerMemberships(viewerId, ids),
      this.requests.viewerStatuses(viewerId, ids),
      Promise.all(squads.map((s) => this.members.count(s._id))),
      Promise.all(squads.map((s) => this.members.list(s._id, SAMPLE_MEMBERS))),
    ]);
    const cards = await this.userCards.cardsById([
      ...squads.map((s) => s.creator_id),
      ...samples.flat().map((m) => m.user_id),
    ]);
    return squads.map((squad, i) => {
      const creator = cards.get(squad.creator_id);
      const role = roles.get(squad._id) ?? null;
      return {
        id: squad._id,
        name: squad.name,
        description: squad.description,
        category: squad.category,
        created_at: squad.created_at,
        updated_at: squad.updated_at,
        creator_id: squad.creator_id,
        creator_name: creator?.display_name ?? 'Unknown member',
        creator_username: creator?.username ?? 'unknown',
        creator_avatar: creator?.profile_image_url ?? null,
        member_count: counts[i],
        sample_members: samples[i].map((m) => {
          const card = cards.get(m.user_id);
          return {
            id: m.user_id,
            username: card?.username ?? 'unknown',
            display_name: card?.display_name ?? 'Unknown member',
            profile_image_url: card?.profile_image_url ?? null,
          };
        }),
        is_member: role !== null,
        join_request_status: role ? null : (statuses.get(squad._id) ?? null),
        user_role: role,
      };
    });
  }

  async detail(squad: SquadDoc, viewerId: string): Promise<SquadView> {
    const [[card], members] = await Promise.all([
      this.cards([squad], viewerId),
      this.members.list(squad._id).then((docs) => this.members.views(docs)),
    ]);
    const week = await this.activity.week(squad._id, members);
    return { ...card, member_count: members.length, members, week };
  }
}
