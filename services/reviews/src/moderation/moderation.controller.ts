import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ModerationLogQueryDto, ModerationReasonDto, ModerationReportsQueryDto, pageWindow, SetRoleDto, SuspendMemberDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply, RequireRole } from '@app/platform';
import { ModerationService } from './moderation.service';

/** /api/moderation/* (issue 22 §3): moderators and admins; role changes admins only. */
@Controller('moderation')
export class ModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @RequireRole('moderator')
  @Get('reports')
  async reports(@Query() query: ModerationReportsQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.moderation.reportPage(query.status ?? 'open', skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @RequireRole('moderator')
  @Post('reports/:id/dismiss')
  @HttpCode(200)
  async dismiss(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    await this.moderation.dismiss(user, id, dto.reason);
    return Reply.message('Report dismissed', null);
  }

  @RequireRole('moderator')
  @Post('reviews/:id/hide')
  @HttpCode(200)
  async hide(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    await this.moderation.hideReview(user, id, dto.reason);
    return Reply.message('Review hidden', null);
  }

  @RequireRole('moderator')
  @Post('reviews/:id/unhide')
  @HttpCode(200)
  async unhide(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    await this.moderation.unhideReview(user, id, dto.reason);
    return Reply.message('Review shown again', null);
  }

  @RequireRole('moderator')
  @Post('comments/:id/hide')
  @HttpCode(200)
  async hideComment(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    await this.moderation.hideComment(user, id, dto.reason);
    return Reply.message('Comment hidden', null);
  }

  @RequireRole('moderator')
  @Post('comments/:id/unhide')
  @HttpCode(200)
  async unhideComment(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    await this.moderation.unhideComment(user, id, dto.reason);
    return Reply.message('Comment shown again', null);
  }

  @RequireRole('moderator')
  @Post('suspensions/:userId')
  async suspend(@CurrentUser() user: AuthenticatedUser, @Param('userId') userId: string, @Body() dto: SuspendMemberDto) {
    return Reply.message('Member suspended', await this.moderation.suspend(user, userId, dto));
  }

  @RequireRole('admin')
  @Put('roles/:userId')
  async setRole(@CurrentUser() user: AuthenticatedUser, @Param('userId') userId: string, @Body() dto: SetRoleDto) {
    await this.moderation.setRole(user, userId, dto);
    return Reply.message('Role changed', null);
  }

  @RequireRole('moderator')
  @Get('staff')
  staff() {
    return this.moderation.staff();
  }

  @RequireRole('moderator')
  @Get('log')
  async log(@Query() query: ModerationLogQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.moderation.logPage(skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
