import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { LikesService } from './likes.service';

@Controller()
export class LikesEvents {
  constructor(private readonly likes: LikesService) {}

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.likes.forgetReview(event.payload.reviewId);
  }
}
