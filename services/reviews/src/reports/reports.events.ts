import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsEvents {
  constructor(private readonly reports: ReportsService) {}

  /** A deleted review leaves nothing to moderate. */
  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.reports.forgetReview(event.payload.reviewId);
  }
}
