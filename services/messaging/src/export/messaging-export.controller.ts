import { Controller, Get, Inject } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, ExportPart, exportParts, MemberExportModule } from '@app/platform';
import { STORE, Store } from '@app/store';
import { conversationsCollection } from '../conversations/conversation.collection';
import { messagesCollection } from '../messages/message.collection';

/** The member's conversations (without the last message, which may be another member's) and the messages they sent. */
const PARTS: ExportPart[] = [
  { key: 'conversations', collection: conversationsCollection, filter: (id) => ({ member_ids: id }), omit: ['last_message', 'pair_key', 'name_at'] },
  { key: 'messages_sent', collection: messagesCollection, filter: (id) => ({ sender_id: id }) },
];

@Controller('messages/me')
export class MessagingExportController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get('export')
  export(@CurrentUser() member: AuthenticatedUser) {
    return exportParts(this.store, PARTS, member.id);
  }
}

export const MessagingExport = MemberExportModule.withController(MessagingExportController);
