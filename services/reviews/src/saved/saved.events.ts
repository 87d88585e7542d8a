import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { SavedService } from './saved.service';

@Controller()
export class SavedEvents {
  constructor(private readonly saved: SavedService) {}

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.saved.forget('review', event.payload.reviewId);
  }
}
