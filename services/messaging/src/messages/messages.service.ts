import { Inject, Injectable } from '@nestjs/common';
import { MessageAttachmentView, MessageMentions, MessageView, mentionedUsernames, ReactionView, UserCard } from '@app/contracts';
import { EventBus } from '@app/bus';
import { BlocksReadModel, UserCardsReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { ConversationDoc } from '../conversations/conversation.collection';
import { ConversationsService } from '../conversations/conversations.service';
import { MessageDoc, messagesCollection } from './message.collection';
import { ReactionDoc, reactionId, reactionsCollection } from './reaction.collection';
import { MessagingException } from '../messaging.errors';

function toMessageView(doc: MessageDoc, sender: UserCard, reactions: ReactionView[] = []): MessageView {
  return {
    id: doc._id,
    conversation_id: doc.conversation_id,
    sender_id: doc.sender_id,
    sender,
    // Blank in every reply once deleted, whatever an older row still holds.
    content: doc.deleted_at ? '' : doc.content,
    created_at: doc.created_at,
    edited_at: doc.edited_at ?? null,
    deleted: Boolean(doc.deleted_at),
    reactions,
    attachments: doc.deleted_at ? [] : (doc.attachments ?? []),
  };
}

/** Counts per emoji in order of first use; `me` when `viewerId` is among them. */
function reactionViews(rows: readonly ReactionDoc[], viewerId: string): ReactionView[] {
  const byEmoji = new Map<string, ReactionView>();
  for (const r of [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at))) {
    const v = byEmoji.get(r.emoji) ?? { emoji: r.emoji, count: 0, me: false };
    v.count += 1;
    v.me ||= r.user_id === viewerId;
    byEmoji.set(r.emoji, v);
  }
  return [...byEmoji.values()];
}

@Injectable()
export class MessagesService {
  private readonly messages: Collection<MessageDoc>;
  private readonly reactions: Collection<ReactionDoc>;

  constructor(
    @Inject(STORE) private readonly store: Store,
    private readonly conversations: ConversationsService,
    private readonly cards: UserCardsReadModel,
    private readonly blocks: BlocksReadModel,
    private readonly bus: EventBus,
  ) {
    this.messages = store.collection(messagesCollection);
    this.reactions = store.collection(reactionsCollection);
  }

  /** One page counted from the newest message, returned oldest first (the order the chat pane shows). */
  async page(conversationId: string, viewerId: string, skip: number, limit: number): Promise<{ items: MessageView[]; total: number }> {
    await this.conversations.requireMember(conversationId, viewerId);
    const filter = { conversation_id: conversationId };
    const [docs, total] = await Promise.all([
      this.messages.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.messages.count(filter),
    ]);
    const [cards, reactions] = await Promise.all([
      this.cards.cardsById(docs.map((d) => d.sender_id)),
      docs.length ? this.reactions.find({ message_id: { $in: docs.map((d) => d._id) } }) : Promise.resolve([]),
    ]);
    const byMessage = new Map<string, ReactionDoc[]>();
    for (const r of reactions) byMessage.set(r.message_id, [...(byMessage.get(r.message_id) ?? []), r]);
    return {
      items: docs
        .reverse()
        .map((d) => toMessageView(d, cards.get(d.sender_id) as UserCard, reactionViews(byMessage.get(d._id) ?? [], viewerId))),
      total,
    };
  }

  /**
   * Persists the message with its `message.sent`, from which the gateway delivers it (and, in a
   * squad chat, the notifications service tells the mentioned members).
   */
  send(conversationId: string, senderId: string, content: string, images: readonly { url: string; alt?: string }[] = []): Promise<MessageView> {
    // Its reads of cached read models (cards, blocks) share one look at the versions (PostgreSQL),
    // the first taken beside the conversation's read.
    const send = () => this.sendNow(conversationId, senderId, content, images);
    return this.store.withOneLook ? this.store.withOneLook(send) : send();
  }

  private async sendNow(conversationId: string, senderId: string, content: string, images: readonly { url: string; alt?: string }[]): Promise<MessageView> {
    const [conversation, cards] = await Promise.all([this.conversations.requireMember(conversationId, senderId), this.cards.cardsById([senderId])]);
    const [, mentions] = await Promise.all([this.refuseClosedPair(conversation, senderId), this.newMentions(conversation, senderId, content, [])]);
    const attachments: MessageAttachmentView[] = images.map((a) => ({ url: a.url, alt: a.alt || null }));
    const doc: MessageDoc = {
      _id: newId(),
      conversation_id: conversationId,
      sender_id: senderId,
      content,
      created_at: new Date().toISOString(),
      ...(attachments.length > 0 && { attachments }),
      ...(mentions && { mentioned_ids: mentions.userIds }),
    };
    const view = toMessageView(doc, cards.get(senderId) as UserCard);
    await this.bus.emitWith(
      {
        type: 'message.sent',
        payload: {
          messageId: doc._id,
          conversationId,
          senderId,
          memberIds: conversation.member_ids,
          message: view,
          ...(mentions && { mentions }),
          ...(conversation.squad_id && { squadId: conversation.squad_id }),
        },
        key: conversationId,
        actorId: senderId,
        proof: { collection: messagesCollection, match: { _id: doc._id }, present: true },
      },
      async () => {
        // Nothing in the send reads the row back, and its id is new: it goes with the commit, as do
        // the conversation's last message and unread counts (on PostgreSQL the whole send is one round trip).
        await this.messages.writeWithCommit({ insert: [doc] });
        await this.conversations.recordMessage(conversation, {
          id: doc._id,
          content: doc.content,
          sender_id: senderId,
          created_at: doc.created_at,
          images: attachments.length,
        });
        return doc;
      },
    );
    return view;
  }

  /** PUT /messages/{id}: the sender's new text, announced as `message.edited`. */
  async edit(messageId: string, userId: string, content: string): Promise<MessageView> {
    const { message, conversation } = await this.requireOwn(messageId, userId);
    if (message.deleted_at) throw new MessagingException('MESSAGE_DELETED', 'This message was deleted');
    if (message.content === content) return this.view(message, userId);
    const editedAt = new Date().toISOString();
    // Only members not yet told of this message: an edit that adds a mention notifies once.
    const mentions = await this.newMentions(conversation, userId, content, message.mentioned_ids ?? []);
    const mentionedIds = [...(message.mentioned_ids ?? []), ...(mentions?.userIds ?? [])];
    await this.bus.emitWith(
      {
        type: 'message.edited',
        payload: {
          messageId,
          conversationId: conversation._id,
          senderId: userId,
          memberIds: conversation.member_ids,
          content,
          editedAt,
          ...(mentions && { mentions }),
        },
        key: conversation._id,
        actorId: userId,
        proof: { collection: messagesCollection, match: { _id: messageId, edited_at: editedAt }, present: true },
      },
      async () => {
        // Not over a concurrent delete: then nothing changes and the event is dropped.
        const { matched } = await this.messages.updateOne(
          { _id: messageId, deleted_at: { $exists: false } },
          { $set: { content, edited_at: editedAt, ...(mentions && { mentioned_ids: mentionedIds }) } },
        );
        if (matched) await this.conversations.followLastMessage(conversation._id, messageId, { content });
        return matched;
      },
    );
    return this.view({ ...message, content, edited_at: editedAt, mentioned_ids: mentionedIds }, userId);
  }

  /**
   * DELETE /messages/{id}: the row stays as a tombstone with its text blanked and its reactions
   * gone; unread counts are left alone (the message was counted when it arrived). Deleting a
   * tombstone again changes nothing and announces nothing.
   */
  async remove(messageId: string, userId: string): Promise<MessageView> {
    const { message, conversation } = await this.requireOwn(messageId, userId);
    if (message.deleted_at) return this.view(message, userId);
    const deletedAt = new Date().toISOString();
    await this.bus.emitWith(
      {
        type: 'message.deleted',
        payload: { messageId, conversationId: conversation._id, senderId: userId, memberIds: conversation.member_ids, deletedAt },
        key: conversation._id,
        actorId: userId,
        proof: { collection: messagesCollection, match: { _id: messageId, deleted_at: deletedAt }, present: true },
      },
      async () => {
        const { matched } = await this.messages.updateOne(
          { _id: messageId, deleted_at: { $exists: false } },
          { $set: { content: '', deleted_at: deletedAt, attachments: [] } },
        );
        await this.reactions.deleteMany({ message_id: messageId });
        await this.conversations.followLastMessage(conversation._id, messageId, { content: '', deleted: true, images: 0 });
        return matched;
      },
    );
    return this.view({ ...message, content: '', deleted_at: deletedAt, attachments: [] }, userId);
  }

  /** POST|DELETE /messages/{id}/reactions: any member; a repeat of the current state announces nothing. */
  async react(messageId: string, userId: string, emoji: string, add: boolean): Promise<MessageView> {
    const message = await this.messages.findById(messageId);
    if (!message) throw new MessagingException('MESSAGE_NOT_FOUND', 'Message not found');
    const conversation = await this.conversations.requireMember(message.conversation_id, userId);
    if (message.deleted_at) throw new MessagingException('MESSAGE_DELETED', 'This message was deleted');
    const _id = reactionId(messageId, userId, emoji);
    const rows = await this.reactions.find({ message_id: messageId });
    const exists = rows.some((r) => r._id === _id);
    if (exists !== add) {
      const row: ReactionDoc = { _id, message_id: messageId, conversation_id: conversation._id, user_id: userId, emoji, created_at: new Date().toISOString() };
      // The event is stored before the change runs, so it carries the counts the change makes.
      const after = add ? [...rows, row] : rows.filter((r) => r._id !== _id);
      await this.bus.emitWith(
          {
            type: 'message.reaction_changed',
            payload: {
              messageId,
              conversationId: conversation._id,
              userId,
              emoji,
              added: add,
              memberIds: conversation.member_ids,
              reactions: reactionViews(after, userId).map(({ emoji: e, count }) => ({ emoji: e, count })),
            },
            key: conversation._id,
            actorId: userId,
            proof: { collection: reactionsCollection, match: { _id }, present: add },
          },
          async () => {
            if (!add) return this.reactions.deleteOne({ _id });
            try {
              return await this.reactions.insert(row);
            } catch (err) {
              // A concurrent add of the same reaction made the row and announced it: nothing to add.
              if (err instanceof DuplicateKeyError) return null;
              throw err;
            }
          },
        );
    }
    return this.view(message, userId);
  }

  async removeConversationMessages(conversationId: string): Promise<void> {
    await this.messages.deleteMany({ conversation_id: conversationId });
    await this.reactions.deleteMany({ conversation_id: conversationId });
  }

  private async view(message: MessageDoc, viewerId: string): Promise<MessageView> {
    const [cards, reactions] = await Promise.all([
      this.cards.cardsById([message.sender_id]),
      this.reactions.find({ message_id: message._id }),
    ]);
    return toMessageView(message, cards.get(message.sender_id) as UserCard, reactionViews(reactions, viewerId));
  }

  /** The message and its conversation, if `userId` sent it: 404 when missing, 403 for another's. */
  private async requireOwn(messageId: string, userId: string): Promise<{ message: MessageDoc; conversation: ConversationDoc }> {
    const message = await this.messages.findById(messageId);
    if (!message) throw new MessagingException('MESSAGE_NOT_FOUND', 'Message not found');
    if (message.sender_id !== userId) throw new MessagingException('NOT_MESSAGE_SENDER', 'You can only change your own messages');
    // A sender who left the conversation no longer changes what its members see.
    const conversation = await this.conversations.requireMember(message.conversation_id, userId);
    return { message, conversation };
  }

  /**
   * Squad chat only: the members `content` names by @username, minus the author and `already`
   * (told before); null when there is nobody new to tell. Non-members' handles name nobody.
   */
  private async newMentions(
    conversation: ConversationDoc,
    authorId: string,
    content: string,
    already: readonly string[],
  ): Promise<MessageMentions | null> {
    if (!conversation.squad_id) return null;
    const handles = new Set(mentionedUsernames(content));
    if (handles.size === 0) return null;
    const cards = await this.cards.cardsById(conversation.member_ids);
    const userIds = conversation.member_ids.filter((id) => {
      const username = cards.get(id)?.username?.toLowerCase();
      return id !== authorId && !already.includes(id) && username !== undefined && handles.has(username);
    });
    return userIds.length ? { squadId: conversation.squad_id, squadName: conversation.name ?? '', userIds } : null;
  }

  /** A block ends a one-to-one: neither side can write in it any more. */
  /** A one-to-one conversation takes no new message across a block, or to a member who deleted their account. */
  private async refuseClosedPair(conversation: ConversationDoc, senderId: string): Promise<void> {
    if (conversation.is_group) return;
    const others = conversation.member_ids.filter((id) => id !== senderId);
    const [blocked, deleted] = await Promise.all([this.blocks.blockedEitherWay(senderId, others), this.cards.deletedIds(others)]);
    if (blocked) {
      throw new MessagingException('USER_BLOCKED', 'You cannot message this user');
    }
    if (deleted.length > 0) {
      throw new MessagingException('RECIPIENT_DELETED', 'This member deleted their account');
    }
  }
}
