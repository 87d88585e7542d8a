import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConversationsQueryDto, CreateConversationDto, pageWindow } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { ConversationsService } from './conversations.service';

@Controller('messages/conversations')
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser, @Query() query: ConversationsQueryDto) {
    const { page, limit, skip } = pageWindow(query, query.limit);
    const { items, total } = await this.conversations.list(user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  /** 201 with a new conversation; 200 with the existing one-to-one. */
  @Post()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() dto: CreateConversationDto,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    const { conversation, created } = await this.conversations.create(user.id, dto.memberIds);
    if (!created) res.status(200);
    return Reply.message(created ? 'Conversation created' : 'Conversation already exists', conversation);
  }

  @Get(':id/members')
  members(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.conversations.members(id, user.id);
  }

  @Post(':id/read')
  @HttpCode(200)
  read(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return this.conversations.markRead(id, user.id);
  }
}
