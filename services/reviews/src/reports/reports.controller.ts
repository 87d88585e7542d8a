import { Body, Controller, Param, Post } from '@nestjs/common';
import { ReportCommentDto, ReportReviewDto } from '@app/contracts';
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

  @Post('comments/:id/report')
  async reportComment(@CurrentUser() user: AuthenticatedUser, @Param('id') commentId: string, @Body() dto: ReportCommentDto) {
    await this.reports.reportComment(user.id, commentId, dto.reason);
    return Reply.message('Report received', null);
  }
}
