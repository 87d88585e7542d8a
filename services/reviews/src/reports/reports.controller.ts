import { Body, Controller, Param, Post } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope, ReportReviewDto } from '@app/contracts';
import { OnEvent } from '@app/bus';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post('reviews/:id/report')
  async report(@CurrentUser() user: AuthenticatedUser, @Param('id') reviewId: string, @Body() dto: ReportReviewDto) {
    await this.reports.report(user.id, reviewId, dto.reason);
    return Reply.message('Report received', null);
  }

  /** A deleted review leaves nothing to moderate. */
  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.reports.forgetReview(event.payload.reviewId);
  }
}
