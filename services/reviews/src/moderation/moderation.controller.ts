import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ModerationLogQueryDto, ModerationReasonDto, ModerationReportsQueryDto, pageWindow, SetRoleDto, SuspendMemberDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { assertAdmin, assertModerator } from './moderation-access';
import { ModerationService } from './moderation.service';

/** /api/moderation/* (issue 22 §3): moderators and admins; role changes admins only. */
@Controller('moderation')
export class ModerationController {
  constructor(private readonly moderation: ModerationService) {}

  @Get('reports')
  async reports(@CurrentUser() user: AuthenticatedUser, @Query() query: ModerationReportsQueryDto) {
    assertModerator(user);
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.moderation.reportPage(query.status ?? 'open', skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @Post('reports/:id/dismiss')
  @HttpCode(200)
  async dismiss(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    assertModerator(user);
    await this.moderation.dismiss(user, id, dto.reason);
    return Reply.message('Report dismissed', null);
  }

  @Post('reviews/:id/hide')
  @HttpCode(200)
  async hide(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    assertModerator(user);
    await this.moderation.hideReview(user, id, dto.reason);
    return Reply.message('Review hidden', null);
  }

  @Post('reviews/:id/unhide')
  @HttpCode(200)
  async unhide(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    assertModerator(user);
    await this.moderation.unhideReview(user, id, dto.reason);
    return Reply.message('Review shown again', null);
  }

  @Post('comments/:id/hide')
  @HttpCode(200)
  async hideComment(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    assertModerator(user);
    await this.moderation.hideComment(user, id, dto.reason);
    return Reply.message('Comment hidden', null);
  }

  @Post('comments/:id/unhide')
  @HttpCode(200)
  async unhideComment(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ModerationReasonDto) {
    assertModerator(user);
    await this.moderation.unhideComment(user, id, dto.reason);
    return Reply.message('Comment shown again', null);
  }

  @Post('suspensions/:userId')
  async suspend(@CurrentUser() user: AuthenticatedUser, @Param('userId') userId: string, @Body() dto: SuspendMemberDto) {
    assertModerator(user);
    return Reply.message('Member suspended', await this.moderation.suspend(user, userId, dto));
  }

  @Put('roles/:userId')
  async setRole(@CurrentUser() user: AuthenticatedUser, @Param('userId') userId: string, @Body() dto: SetRoleDto) {
    assertAdmin(user);
    await this.moderation.setRole(user, userId, dto);
    return Reply.message('Role changed', null);
  }

  @Get('staff')
  staff(@CurrentUser() user: AuthenticatedUser) {
    assertModerator(user);
    return this.moderation.staff();
  }

  @Get('log')
  async log(@CurrentUser() user: AuthenticatedUser, @Query() query: ModerationLogQueryDto) {
    assertModerator(user);
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.moderation.logPage(skip, limit);
    return Reply.list(items, total, page, limit);
  }
}
