import { Inject, Injectable } from '@nestjs/common';
import { Collection, STORE, Store } from '@app/store';
import { ConversationDoc, conversationsCollection, MemberStateDoc, memberStatesCollection } from '../conversations/conversation.collection';
import { MessageDoc, messagesCollection } from '../messages/message.collection';
import { ReactionDoc, reactionsCollection } from '../messages/reaction.collection';

/**
 * Erases a deleted member from messaging (issue 20 §5). Their messages stay in the others'
 * history as blank tombstones, exactly like a message its sender deleted, under the "Deleted
 * member" card; their reactions go, and others' reactions on their messages. They leave every
 * group and squad chat (one left empty goes); a one-to-one stays for the other member, who sees
 * the history with "Deleted member". Unread counts are the others' own and stay exact: the
 * tombstones were counted when they arrived, as after any delete. Each step can run again.
 */
@Injectable()
export class ErasureService {
  private readonly conversations: Collection<ConversationDoc>;
  private readonly states: Collection<MemberStateDoc>;
  private readonly messages: Collection<MessageDoc>;
  private readonly reactions: Collection<ReactionDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.conversations = store.collection(conversationsCollection);
    this.states = store.collection(memberStatesCollection);
    this.messages = store.collection(messagesCollection);
    this.reactions = store.collection(reactionsCollection);
  }

  async erase(userId: string): Promise<void> {
    await this.reactions.deleteMany({ user_id: userId });
    await this.blankMessages(userId);
    await this.conversations.updateMany(
      { 'last_message.sender_id': userId },
      { $set: { 'last_message.content': '', 'last_message.deleted': true } },
    );
    await this.states.deleteMany({ user_id: userId });
    // Squad chats are groups too.
    for (const group of await this.conversations.find({ member_ids: userId, is_group: true })) await this.leaveGroup(group, userId);
  }

  /** Others' reactions on their messages go before the text, so a rerun still finds those messages. */
  private async blankMessages(userId: string): Promise<void> {
    const live = { sender_id: userId, deleted_at: { $exists: false } };
    const ids = (await this.messages.find(live, { projection: { _id: 1 } })).map((m) => m._id);
    if (ids.length > 0) await this.reactions.deleteMany({ message_id: { $in: ids } });
    await this.messages.updateMany(live, { $set: { content: '', deleted_at: new Date().toISOString() }, $unset: { edited_at: '' } });
  }

  private async leaveGroup(conversation: ConversationDoc, userId: string): Promise<void> {
    const left = conversation.member_ids.filter((id) => id !== userId);
    if (left.length > 0) {
      await this.conversations.updateOne({ _id: conversation._id }, { $pull: { member_ids: userId } });
      return;
    }
    await this.reactions.deleteMany({ conversation_id: conversation._id });
    await this.messages.deleteMany({ conversation_id: conversation._id });
    await this.states.deleteMany({ conversation_id: conversation._id });
    await this.conversations.deleteOne({ _id: conversation._id });
  }
}
