import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { WeekActivityReadModel } from './week-activity.service';

/** A squad's week from messaging's and reviews' events (week-activity.service.ts). */
@Controller()
export class WeekActivityEvents {
  constructor(private readonly week: WeekActivityReadModel) {}

  // Only a squad chat's messages: a direct message is acknowledged as ignored, no inbox row, no transaction.
  @OnEvent('message.sent', { when: (event) => event.payload.squadId !== undefined })
  async onMessageSent(@Payload() event: EventEnvelope<'message.sent'>): Promise<void> {
    const { messageId, squadId, senderId, message } = event.payload;
    await this.week.messageSent(messageId, squadId as string, senderId, message.created_at);
  }

  @OnEvent('message.deleted')
  async onMessageDeleted(@Payload() event: EventEnvelope<'message.deleted'>): Promise<void> {
    await this.week.messageDeleted(event.payload.messageId, event.payload.senderId, event.occurredAt);
  }

  @OnEventBatch('review.created')
  async onReviewsCreated(@Payload() events: EventEnvelope<'review.created'>[]): Promise<void> {
    await this.week.reviewsCreated(events.map(({ payload: p }) => ({ reviewId: p.reviewId, authorId: p.authorId, at: p.created_at })));
  }

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.week.reviewDeleted(event.payload.reviewId, event.payload.authorId, event.occurredAt);
  }

  @OnEvent('moderation.content_hidden', { when: (event) => event.payload.kind === 'review' })
  async onContentHidden(@Payload() event: EventEnvelope<'moderation.content_hidden'>): Promise<void> {
    await this.week.reviewHidden(event.payload.contentId, event.payload.authorId, true, event.occurredAt);
  }

  @OnEvent('moderation.content_shown', { when: (event) => event.payload.kind === 'review' })
  async onContentShown(@Payload() event: EventEnvelope<'moderation.content_shown'>): Promise<void> {
    await this.week.reviewHidden(event.payload.contentId, event.payload.authorId, false, event.occurredAt);
  }
}
