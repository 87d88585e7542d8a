import { Controller, Get, Param } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser } from '@app/platform';
import { SquadChatService } from './squad-chat.service';

@Controller('messages/squads')
export class SquadChatController {
  constructor(private readonly squadChat: SquadChatService) {}

  @Get(':squadId/conversation')
  open(@CurrentUser() user: AuthenticatedUser, @Param('squadId') squadId: string) {
    return this.squadChat.open(squadId, user.id);
  }
}
