import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { MessagesModule } from '../messages/messages.module';
import { SquadChatController } from './squad-chat.controller';
import { SquadChatEvents } from './squad-chat.events';
import { SquadChatService } from './squad-chat.service';

@Module({
  imports: [ConversationsModule, MessagesModule],
  controllers: [SquadChatController, SquadChatEvents],
  providers: [SquadChatService],
})
export class SquadChatModule {}
