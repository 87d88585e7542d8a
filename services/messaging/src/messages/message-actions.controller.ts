import { Body, Controller, Delete, Param, Post, Put } from '@nestjs/common';
import { EditMessageDto, ReactionDto } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Reply } from '@app/platform';
import { MessagesService } from './messages.service';

/** One message by its id: edit and delete (its sender), reactions (any member). */
@Controller('messages/:id')
export class MessageActionsController {
  constructor(private readonly messages: MessagesService) {}

  @Put()
  async edit(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: EditMessageDto) {
    return Reply.message('Message updated', await this.messages.edit(id, user.id, dto.content));
  }

  @Delete()
  async remove(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string) {
    return Reply.message('Message deleted', await this.messages.remove(id, user.id));
  }

  @Post('reactions')
  async react(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ReactionDto) {
    return Reply.message('Reaction added', await this.messages.react(id, user.id, dto.emoji, true));
  }

  @Delete('reactions')
  async unreact(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Body() dto: ReactionDto) {
    return Reply.message('Reaction removed', await this.messages.react(id, user.id, dto.emoji, false));
  }
}
