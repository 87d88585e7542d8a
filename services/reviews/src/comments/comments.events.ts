import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { CommentsService } from './comments.service';

@Controller()
export class CommentsEvents {
  constructor(private readonly comments: CommentsService) {}

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.comments.forgetReview(event.payload.reviewId);
  }
}
