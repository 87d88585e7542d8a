import { BlocksModule, blocksCollection, relationVersionsCollection, ServiceDefinition, userCardsCollection, UserCardsModule } from '@app/platform';
import { conversationsCollection, memberStatesCollection } from './conversations/conversation.collection';
import { ConversationsModule } from './conversations/conversations.module';
import { CountersModule } from './counters/counters.module';
import { messagesCollection } from './messages/message.collection';
import { reactionsCollection } from './messages/reaction.collection';
import { MessagesModule } from './messages/messages.module';
import { SquadChatModule } from './squad-chat/squad-chat.module';
import { ErasureModule } from './erasure/erasure.module';
import { MessagingExport } from './export/messaging-export.controller';

/** services/messaging: conversations, members, messages, squad chats (/api/messages/*). */
export const messagingService: ServiceDefinition = {
  name: 'messaging',
  collections: [conversationsCollection, memberStatesCollection, messagesCollection, reactionsCollection, userCardsCollection, blocksCollection, relationVersionsCollection],
  imports: [
    MessagingExport,
    // Messaging has always shown a member it has not heard of with an empty username.
    UserCardsModule.forRoot({ placeholder: { username: '', display_name: 'Unknown member' } }),
    BlocksModule,
    ConversationsModule,
    MessagesModule,
    SquadChatModule,
    CountersModule,
    ErasureModule,
  ],
};
