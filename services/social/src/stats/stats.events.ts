import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { ActivityService } from './activity.service';

/** Keeps reviewsCount (hidden reviews left out) and squadsCount from the reviews and squads services' events. */
@Controller()
export class StatsEvents {
  constructor(private readonly activity: ActivityService) {}

  @OnEventBatch('review.created')
  async onReviewsCreated(@Payload() events: EventEnvelope<'review.created'>[]): Promise<void> {
    await this.activity.reviewsCreated(events.map(({ payload: p }) => ({ reviewId: p.reviewId, authorId: p.authorId })));
  }

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.activity.reviewDeleted(event.payload.reviewId, event.payload.authorId);
  }

  @OnEvent('moderation.content_hidden')
  async onContentHidden(@Payload() event: EventEnvelope<'moderation.content_hidden'>): Promise<void> {
    const { kind, contentId, authorId } = event.payload;
    if (kind === 'review') await this.activity.reviewHidden(contentId, authorId, true, event.occurredAt);
  }

  @OnEvent('moderation.content_shown')
  async onContentShown(@Payload() event: EventEnvelope<'moderation.content_shown'>): Promise<void> {
    const { kind, contentId, authorId } = event.payload;
    if (kind === 'review') await this.activity.reviewHidden(contentId, authorId, false, event.occurredAt);
  }

  @OnEvent('squad.member_joined')
  async onMemberJoined(@Payload() event: EventEnvelope<'squad.member_joined'>): Promise<void> {
    await this.activity.squadMembership(event.payload.squadId, event.payload.userId, true, event.occurredAt);
  }

  @OnEvent('squad.member_left')
  async onMemberLeft(@Payload() event: EventEnvelope<'squad.member_left'>): Promise<void> {
    await this.activity.squadMembership(event.payload.squadId, event.payload.userId, false, event.occurredAt);
  }

  @OnEvent('squad.deleted')
  async onSquadDeleted(@Payload() event: EventEnvelope<'squad.deleted'>): Promise<void> {
    await this.activity.squadDeleted(event.payload.squadId, event.payload.memberIds, event.occurredAt);
  }
}
