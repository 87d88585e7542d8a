import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { ActivitiesService } from './activities.service';

/** Activities from events; a like's activity is written with the like itself (LikesService: one commit). */
@Controller()
export class ActivitiesEvents {
  constructor(private readonly activities: ActivitiesService) {}

  @OnEvent('squad.member_joined')
  async onSquadJoined(@Payload() event: EventEnvelope<'squad.member_joined'>): Promise<void> {
    const p = event.payload;
    await this.activities.record({
      type: 'squad_join',
      user_id: p.userId,
      data: { squad: { id: p.squadId, name: p.squadName } },
      review_id: null,
      review_author_id: null,
      source_id: event.id,
      created_at: p.joined_at,
    });
  }

  @OnEvent('squad.updated')
  async onSquadUpdated(@Payload() event: EventEnvelope<'squad.updated'>): Promise<void> {
    await this.activities.squadRenamed(event.payload.squadId, event.payload.name, event.payload.updated_at);
  }

  @OnEventBatch('review.created')
  async onReviewsCreated(@Payload() events: EventEnvelope<'review.created'>[]): Promise<void> {
    await this.activities.recordMany(
      events.map(({ id, payload: p }) => ({
        type: 'review_created' as const,
        user_id: p.authorId,
        data: {
          review: { id: p.reviewId, title: p.title, rating: p.rating },
          product: p.productId && p.productName ? { id: p.productId, name: p.productName } : null,
        },
        review_id: p.reviewId,
        review_author_id: p.authorId,
        source_id: id,
        created_at: p.created_at,
      })),
    );
  }

  @OnEvent('comment.created')
  async onCommentCreated(@Payload() event: EventEnvelope<'comment.created'>): Promise<void> {
    const p = event.payload;
    await this.recordAbout('comment_created', p.userId, { id: p.reviewId, authorId: p.reviewAuthorId }, event);
  }

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.activities.forgetReview(event.payload.reviewId);
  }

  private async recordAbout(
    type: 'comment_created',
    userId: string,
    review: { id: string; authorId: string },
    event: EventEnvelope,
  ): Promise<void> {
    const data = await this.activities.reviewData(review.id);
    if (!data) return;
    await this.activities.record({
      type,
      user_id: userId,
      data,
      review_id: review.id,
      review_author_id: review.authorId,
      source_id: event.id,
      created_at: event.occurredAt,
    });
  }
}
