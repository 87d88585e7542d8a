import { Inject, Injectable } from '@nestjs/common';
import { MessageView, UserCard } from '@app/contracts';
import { EventBus } from '@app/bus';
import { BlocksReadModel, UserCardsReadModel } from '@app/platform';
import { Collection, newId, STORE, Store } from '@app/store';
import { ConversationDoc } from '../conversations/conversation.collection';
import { ConversationsService } from '../conversations/conversations.service';
import { MessageDoc, messagesCollection } from './message.collection';
import { MessagingException } from '../messaging.errors';

function toMessageView(doc: MessageDoc, sender: UserCard): MessageView {
  return {
    id: doc._id,
    conversation_id: doc.conversation_id,
    sender_id: doc.sender_id,
    sender,
    content: doc.content,
    created_at: doc.created_at,
  };
}

@Injectable()
export class MessagesService {
  private readonly messages: Collection<MessageDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly conversations: ConversationsService,
    private readonly cards: UserCardsReadModel,
    private readonly blocks: BlocksReadModel,
    private readonly bus: EventBus,
  ) {
    this.messages = store.collection(messagesCollection);
  }

  /** One page counted from the newest message, returned oldest first (the order the chat pane shows). */
  async page(conversationId: string, viewerId: string, skip: number, limit: number): Promise<{ items: MessageView[]; total: number }> {
    await this.conversations.requireMember(conversationId, viewerId);
    const filter = { conversation_id: conversationId };
    const [docs, total] = await Promise.all([
      this.messages.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.messages.count(filter),
    ]);
    const cards = await this.cards.cardsById(docs.map((d) => d.sender_id));
    return { items: docs.reverse().map((d) => toMessageView(d, cards.get(d.sender_id) as UserCard)), total };
  }

  /** Persists the message with its `message.sent`, from which the gateway delivers it. */
  async send(conversationId: string, senderId: string, content: string): Promise<MessageView> {
    const conversation = await this.conversations.requireMember(conversationId, senderId);
    await this.refuseBlockedPair(conversation, senderId);
    const doc: MessageDoc = {
      _id: newId(),
      conversation_id: conversationId,
      sender_id: senderId,
      content,
      created_at: new Date().toISOString(),
    };
    const cards = await this.cards.cardsById([senderId]);
    const view = toMessageView(doc, cards.get(senderId) as UserCard);
    await this.bus.emitWith(
      {
        type: 'message.sent',
        payload: { messageId: doc._id, conversationId, senderId, memberIds: conversation.member_ids, message: view },
        key: conversationId,
        actorId: senderId,
        proof: { collection: messagesCollection, match: { _id: doc._id }, present: true },
      },
      async () => {
        const inserted = await this.messages.insert(doc);
        // The conversation's last message and unread counts belong to this send.
        await this.conversations.recordMessage(conversation, {
          id: doc._id,
          content: doc.content,
          sender_id: senderId,
          created_at: doc.created_at,
        });
        return inserted;
      },
    );
    return view;
  }

  async removeConversationMessages(conversationId: string): Promise<void> {
    await this.messages.deleteMany({ conversation_id: conversationId });
  }

  /** A block ends a one-to-one: neither side can write in it any more. */
  private async refuseBlockedPair(conversation: ConversationDoc, senderId: string): Promise<void> {
    if (conversation.is_group) return;
    const others = conversation.member_ids.filter((id) => id !== senderId);
    if (await this.blocks.blockedEitherWay(senderId, others)) {
      throw new MessagingException('USER_BLOCKED', 'You cannot message this user');
    }
  }
}
