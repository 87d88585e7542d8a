import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { CreateCommentDto, PageQueryDto, pageWindow, UpdateCommentDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { CommentsService } from './comments.service';

@Controller()
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get('reviews/:id/comments')
  async list(@CurrentUser() user: AuthenticatedUser, @Param('id') reviewId: string, @Query() query: PageQueryDto) {
    const { page, limit, skip } = pageWindow(query);
    const { items, total } = await this.comments.list(reviewId, user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @Post('reviews/:id/comments')
  async create(@CurrentUser() user: AuthenticatedUser, @Param('id') reviewId: string, @Body() dto: CreateCommentDto) {
    return Reply.message('Comment added', await this.comments.create(user.id, reviewId, dto.content));
  }

  @Put('comments/:id')
  async update(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: UpdateCommentDto) {
    return Reply.message('Comment updated', await this.comments.update(user.id, id, dto.content));
  }

  @Delete('comments/:id')
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    await this.comments.remove(user.id, id);
    return Reply.message('Comment deleted', null);
  }
}
