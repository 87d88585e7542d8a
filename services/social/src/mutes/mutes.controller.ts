import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { PageQueryDto, pageWindow, UserIdParamDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MUTE_TEXT, MutesService } from './mutes.service';

@Controller('users')
export class MutesController {
  constructor(private readonly mutes: MutesService) {}

  @Post(':id/mute')
  @HttpCode(200)
  async mute(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    await this.mutes.mute(user.id, p.id);
    return Reply.message(MUTE_TEXT.muted, { muted: true });
  }

  @Delete(':id/mute')
  async unmute(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    await this.mutes.unmute(user.id, p.id);
    return Reply.message(MUTE_TEXT.unmuted, { muted: false });
  }

  @Get('mutes')
  async list(@CurrentUser() user: AuthenticatedUser, @Query() q: PageQueryDto) {
    const window = pageWindow(q);
    const { items, total } = await this.mutes.list(user.id, window);
    return Reply.list(items, total, window.page, window.limit);
  }
}
