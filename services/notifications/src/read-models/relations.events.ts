import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { RelationsService } from './relations.service';

/** Follows as the social service announces them (the blocks themselves: the shared BlocksModule). */
@Controller()
export class RelationsEvents {
  constructor(private readonly relations: RelationsService) {}

  /** A run of follows in one insert (a bulk import's thousands). */
  @OnEventBatch('follow.created')
  async onFollowsCreated(@Payload() events: EventEnvelope<'follow.created'>[]): Promise<void> {
    await this.relations.followAll(events.map((e) => [e.payload.followerId, e.payload.followeeId] as const));
  }

  @OnEvent('follow.accepted')
  async onFollowAccepted(@Payload() event: EventEnvelope<'follow.accepted'>): Promise<void> {
    await this.relations.follow(event.payload.followerId, event.payload.followeeId);
  }

  /** A pending request that ended never made a follow: nothing to undo. */
  @OnEvent('follow.removed')
  async onFollowRemoved(@Payload() event: EventEnvelope<'follow.removed'>): Promise<void> {
    if (event.payload.wasPending) return;
    await this.relations.unfollow(event.payload.followerId, event.payload.followeeId);
  }

  @OnEvent('block.created')
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.relations.unfollowEitherWay(event.payload.blockerId, event.payload.blockedId);
  }
}
