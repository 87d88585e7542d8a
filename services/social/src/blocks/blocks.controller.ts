import { Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { PageQueryDto, pageWindow, UserIdParamDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { BLOCK_TEXT, BlocksService } from './blocks.service';

@Controller('users')
export class BlocksController {
  constructor(private readonly blocks: BlocksService) {}

  @Post(':id/block')
  @HttpCode(200)
  async block(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    await this.blocks.block(user.id, p.id);
    return Reply.message(BLOCK_TEXT.blocked, { blocked: true });
  }

  @Delete(':id/block')
  async unblock(@CurrentUser() user: AuthenticatedUser, @Param() p: UserIdParamDto) {
    await this.blocks.unblock(user.id, p.id);
    return Reply.message(BLOCK_TEXT.unblocked, { blocked: false });
  }

  @Get('blocked')
  async blocked(@CurrentUser() user: AuthenticatedUser, @Query() q: PageQueryDto) {
    const window = pageWindow(q);
    const { items, total } = await this.blocks.list(user.id, window);
    return Reply.list(items, total, window.page, window.limit);
  }
}
