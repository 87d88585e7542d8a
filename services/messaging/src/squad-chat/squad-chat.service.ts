import { Injectable } from '@nestjs/common';
import { ConversationView } from '@app/contracts';
import { ConversationsService } from '../conversations/conversations.service';
import { MessagesService } from '../messages/messages.service';
import { MessagingException } from '../messaging.errors';

/** One group conversation per squad whose members follow the squad's membership. */
@Injectable()
export class SquadChatService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
  ) {}

  /** `asOf`: when the event saw the squad's name (a later rename keeps its name). */
  async memberJoined(squadId: string, squadName: string, userId: string, asOf: string): Promise<void> {
    const chat = await this.conversations.ensureSquadChat(squadId, squadName, userId, asOf);
    await this.conversations.addMember(chat._id, userId);
    await this.conversations.nameSquadChat(squadId, squadName, asOf);
  }

  /** squad.updated: the chat takes the squad's new name (the newest by the squad's updated_at). */
  async squadRenamed(squadId: string, name: string, updatedAt: string): Promise<void> {
    await this.conversations.nameSquadChat(squadId, name, updatedAt);
  }

  async memberLeft(squadId: string, userId: string): Promise<void> {
    const chat = await this.conversations.findBySquad(squadId);
    if (chat) await this.conversations.removeMember(chat._id, userId);
  }

  /** The squad is gone: so is its chat, with its history. */
  async squadDeleted(squadId: string): Promise<void> {
    const chat = await this.conversations.findBySquad(squadId);
    if (!chat) return;
    await this.messages.removeConversationMessages(chat._id);
    await this.conversations.remove(chat._id);
  }

  /** What the squad page's Squad Chat button opens: members only. */
  async open(squadId: string, viewerId: string): Promise<ConversationView> {
    const chat = await this.conversations.findBySquad(squadId);
    if (!chat) throw new MessagingException('SQUAD_CHAT_NOT_FOUND', 'Squad chat not found');
    if (!chat.member_ids.includes(viewerId)) throw new MessagingException('NOT_IN_SQUAD_CHAT', 'Only squad members can open the squad chat');
    return this.conversations.view(chat, viewerId);
  }
}
