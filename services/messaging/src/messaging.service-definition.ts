import { ServiceDefinition } from '@app/platform';
import { conversationsCollection, memberStatesCollection } from './conversations/conversation.collection';
import { ConversationsModule } from './conversations/conversations.module';
import { blocksCollection, userCardsCollection } from './members/member-directory.collection';
import { MembersModule } from './members/members.module';
import { messagesCollection } from './messages/message.collection';
import { MessagesModule } from './messages/messages.module';
import { SquadChatModule } from './squad-chat/squad-chat.module';

/** services/messaging: conversations, members, messages, squad chats (/api/messages/*). */
export const messagingService: ServiceDefinition = {
  name: 'messaging',
  collections: [conversationsCollection, memberStatesCollection, messagesCollection, userCardsCollection, blocksCollection],
  imports: [MembersModule, ConversationsModule, MessagesModule, SquadChatModule],
};
