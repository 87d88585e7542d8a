import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { MessagesQueryDto, pageWindow, SendMessageDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MessagesService } from './messages.service';

@Controller('messages/conversations/:id/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Get()
  async page(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Query() query: MessagesQueryDto) {
    const { page, limit, skip } = pageWindow(query, query.limit);
    const { items, total } = await this.messages.page(id, user.id, skip, limit);
    return Reply.list(items, total, page, limit);
  }

  @Post()
  async send(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: SendMessageDto) {
    return Reply.message('Message sent', await this.messages.send(id, user.id, dto.content, dto.attachments));
  }
}
