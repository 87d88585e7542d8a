import { Body, Controller, Param, Post } from '@nestjs/common';
import { ReportReviewDto } from '@app/contracts';
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
}
