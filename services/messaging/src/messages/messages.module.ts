import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { MembersModule } from '../members/members.module';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({
  imports: [ConversationsModule, MembersModule],
  controllers: [MessagesController],
  providers: [MessagesService],
  exports: [MessagesService],
})
export class MessagesModule {}
