import { Inject, Injectable } from '@nestjs/common';
import { ConversationView, ReadMarkerView, UserCard } from '@app/contracts';
import { EventBus } from '@app/bus';
import { BlocksReadModel, UserCardsReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { cardIdsOf, toConversationView } from './conversation-view';
import {
  ConversationDoc,
  conversationsCollection,
  LastMessageDoc,
  memberStateId,
  MemberStateDoc,
  memberStatesCollection,
} from './conversation.collection';
import { MessagingException } from '../messaging.errors';

export const NOT_A_MEMBER = 'You are not a member of this conversation';

function fieldError(field: string, message: string): MessagingException {
  return new MessagingException('INVALID_MEMBERS', message, [{ field, messages: [message] }]);
}

/** Conversations, their members and per-member read state. */
@Injectable()
export class ConversationsService {
  private readonly conversations: Collection<ConversationDoc>;
  private readonly states: Collection<MemberStateDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly cards: UserCardsReadModel,
    private readonly blocks: BlocksReadModel,
    private readonly bus: EventBus,
  ) {
    this.conversations = store.collection(conversationsCollection);
    this.states = store.collection(memberStatesCollection);
  }

  /** The viewer's conversations, most recently updated first. */
  async list(viewerId: string, skip: number, limit: number): Promise<{ items: ConversationView[]; total: number }> {
    const filter = { member_ids: viewerId };
    const [docs, total] = await Promise.all([
      this.conversations.find(filter, { sort: { updated_at: -1, _id: -1 }, skip, limit }),
      this.conversations.count(filter),
    ]);
    return { items: await this.views(docs, viewerId), total };
  }

  /**
   * Starts a conversation with the picked users. A second one-to-one with the same
   * person returns the existing conversation (`created: false`).
   */
  async create(creatorId: string, memberIds: readonly string[]): Promise<{ conversation: ConversationView; created: boolean }> {
    const others = memberIds.filter((id) => id !== creatorId);
    if (others.length === 0) throw fieldError('memberIds', 'Select at least one user other than yourself');
    const unknown = await this.cards.unknownIds(others);
    if (unknown.length > 0) throw fieldError('memberIds', `Unknown user: ${unknown[0]}`);
    if (await this.blocks.blockedEitherWay(creatorId, others)) {
      throw new MessagingException('USER_BLOCKED', 'You cannot start a conversation with this user');
    }
    const pairKey = others.length === 1 ? [creatorId, others[0]].sort().join(':') : undefined;
    if (pairKey) {
      const existing = await this.conversations.findOne({ pair_key: pairKey });
      if (existing) return { conversation: await this.view(existing, creatorId), created: false };
    }
    const now = new Date().toISOString();
    const doc: ConversationDoc = {
      _id: newId(),
      member_ids: [creatorId, ...others],
      is_group: others.length > 1,
      name: null,
      ...(pairKey && { pair_key: pairKey }),
      created_by: creatorId,
      created_at: now,
      updated_at: now,
      last_message: null,
    };
    try {
      await this.insertAnnounced(doc, creatorId);
    } catch (err) {
      // A concurrent request made the same one-to-one: answer with that one.
      const raced = err instanceof DuplicateKeyError && pairKey && (await this.conversations.findOne({ pair_key: pairKey }));
      if (!raced) throw err;
      return { conversation: await this.view(raced, creatorId), created: false };
    }
    return { conversation: await this.view(doc, creatorId), created: true };
  }

  /** The conversation, if `userId` is a member: 404 when missing, 403 when not a member. */
  async requireMember(conversationId: string, userId: string): Promise<ConversationDoc> {
    const doc = await this.conversations.findById(conversationId);
    if (!doc) throw new MessagingException('CONVERSATION_NOT_FOUND', 'Conversation not found');
    if (!doc.member_ids.includes(userId)) throw new MessagingException('NOT_IN_CONVERSATION', NOT_A_MEMBER);
    return doc;
  }

  async members(conversationId: string, viewerId: string): Promise<UserCard[]> {
    const doc = await this.requireMember(conversationId, viewerId);
    const cards = await this.cards.cardsById(doc.member_ids);
    return doc.member_ids.map((id) => cards.get(id) as UserCard);
  }

  /** Announced as conversation.read: the reader's other tabs and, in a one-to-one, the sender's "Seen". */
  async markRead(conversationId: string, userId: string): Promise<ReadMarkerView> {
    const conversation = await this.requireMember(conversationId, userId);
    const now = new Date().toISOString();
    await this.ensureState(conversationId, userId, now);
    const _id = memberStateId(conversationId, userId);
    await this.bus.emitWith(
      {
        type: 'conversation.read',
        payload: { conversationId, userId, memberIds: conversation.member_ids, isGroup: conversation.is_group, readAt: now },
        key: conversationId,
        actorId: userId,
        proof: { collection: memberStatesCollection, match: { _id, last_read_at: now }, present: true },
      },
      () => this.states.updateOne({ _id }, { $set: { unread_count: 0, last_read_at: now } }),
    );
    return { conversation_id: conversationId, unread_count: 0, last_read_at: now };
  }

  /**
   * Moves the conversation to the top for everyone and counts the message as unread for the others.
   * Nothing reads these back in the send: inside its transaction they go with the commit (one round
   * trip on PostgreSQL instead of three).
   */
  async recordMessage(conversation: ConversationDoc, message: LastMessageDoc): Promise<void> {
    // Guarded: a slower concurrent send never replaces a newer last message (one document: its _id);
    // of two sent in the same millisecond the later id wins, as the conversation lists them.
    await this.conversations.updateWithCommit(
      {
        _id: conversation._id,
        $or: [
          { updated_at: { $lt: message.created_at } },
          { updated_at: message.created_at, last_message: null },
          { updated_at: message.created_at, 'last_message.id': { $lt: message.id } },
        ],
      },
      { $set: { last_message: message, updated_at: message.created_at } },
    );
    await this.states.updateWithCommit(
      { conversation_id: conversation._id, user_id: { $ne: message.sender_id } },
      { $inc: { unread_count: 1 } },
    );
    // Writing in a conversation means having read it.
    await this.states.updateWithCommit(
      { _id: memberStateId(conversation._id, message.sender_id) },
      { $set: { unread_count: 0, last_read_at: message.created_at } },
    );
  }

  /**
   * Keeps the list's preview in step with an edit or delete of the message it shows; an older
   * message changing leaves it alone. Unread counts are untouched: nothing new arrived.
   */
  async followLastMessage(conversationId: string, messageId: string, change: { content: string; deleted?: boolean; images?: number }): Promise<void> {
    const doc = await this.conversations.findById(conversationId);
    if (doc?.last_message?.id !== messageId) return;
    await this.conversations.updateOne(
      { _id: conversationId, 'last_message.id': messageId },
      { $set: { last_message: { ...doc.last_message, ...change } } },
    );
  }

  async view(doc: ConversationDoc, viewerId: string): Promise<ConversationView> {
    const [view] = await this.views([doc], viewerId);
    return view;
  }

  // --- squad chats (driven by squad events) ---

  async findBySquad(squadId: string): Promise<ConversationDoc | null> {
    return this.conversations.findOne({ squad_id: squadId });
  }

  /** The squad's group conversation, made on first need; `userId` becomes its first member. */
  async ensureSquadChat(squadId: string, squadName: string, userId: string, nameAt: string): Promise<ConversationDoc> {
    const existing = await this.findBySquad(squadId);
    if (existing) return existing;
    const now = new Date().toISOString();
    try {
      return await this.insertAnnounced(
        {
          _id: newId(),
          member_ids: [userId],
          is_group: true,
          name: squadName,
          squad_id: squadId,
          name_at: nameAt,
          created_by: userId,
          created_at: now,
          updated_at: now,
          last_message: null,
        },
        userId,
      );
    } catch (err) {
      const raced = err instanceof DuplicateKeyError && (await this.findBySquad(squadId));
      if (!raced) throw err;
      return raced;
    }
  }

  async addMember(conversationId: string, userId: string): Promise<void> {
    await this.conversations.updateOne({ _id: conversationId }, { $addToSet: { member_ids: userId } });
    await this.ensureState(conversationId, userId, new Date().toISOString());
  }

  /**
   * Names the squad's chat after the squad, unless it already shows a name as of a later
   * time: a replayed or late event changes nothing. No chat (yet, or any more): nothing to name.
   */
  async nameSquadChat(squadId: string, name: string, nameAt: string): Promise<void> {
    await this.conversations.updateOne(
      { squad_id: squadId, $or: [{ name_at: { $exists: false } }, { name_at: { $lte: nameAt } }] },
      { $set: { name, name_at: nameAt } },
    );
  }

  async removeMember(conversationId: string, userId: string): Promise<void> {
    await this.conversations.updateOne({ _id: conversationId }, { $pull: { member_ids: userId } });
    await this.states.deleteOne({ _id: memberStateId(conversationId, userId) });
  }

  async remove(conversationId: string): Promise<void> {
    await this.states.deleteMany({ conversation_id: conversationId });
    await this.conversations.deleteOne({ _id: conversationId });
  }

  private async views(docs: ConversationDoc[], viewerId: string): Promise<ConversationView[]> {
    if (docs.length === 0) return [];
    // One-to-ones also need the other member's read marker, for "Seen".
    const otherIds = docs.filter((d) => !d.is_group).map((d) => memberStateId(d._id, d.member_ids.find((id) => id !== viewerId) ?? viewerId));
    const [cards, states] = await Promise.all([
      this.cards.cardsById(cardIdsOf(docs)),
      this.states.find({ _id: { $in: [...docs.map((d) => memberStateId(d._id, viewerId)), ...otherIds] } }),
    ]);
    const unread = new Map(states.filter((s) => s.user_id === viewerId).map((s) => [s.conversation_id, s.unread_count]));
    const otherRead = new Map(states.filter((s) => s.user_id !== viewerId).map((s) => [s.conversation_id, s.last_read_at]));
    return docs.map((d) => toConversationView(d, viewerId, cards, unread.get(d._id) ?? 0, otherRead.get(d._id) ?? null));
  }

  /** Creates the member's state once; a redelivered event or a retry leaves it as it is. */
  private async ensureState(conversationId: string, userId: string, now: string): Promise<void> {
    const _id = memberStateId(conversationId, userId);
    if (await this.states.findById(_id)) return;
    try {
      await this.states.insert({ _id, conversation_id: conversationId, user_id: userId, unread_count: 0, last_read_at: null, joined_at: now });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Inserts the conversation and its members' states with conversation.created; a unique key taken throws. */
  private insertAnnounced(doc: ConversationDoc, createdBy: string): Promise<ConversationDoc> {
    return this.bus.emitWith(
      {
        type: 'conversation.created',
        payload: { conversationId: doc._id, memberIds: doc.member_ids, createdBy, squadId: doc.squad_id ?? null },
        key: doc._id,
        actorId: createdBy,
        proof: { collection: conversationsCollection, match: { _id: doc._id }, present: true },
      },
      async () => {
        const inserted = await this.conversations.insert(doc);
        await Promise.all(doc.member_ids.map((id) => this.ensureState(doc._id, id, doc.created_at)));
        return inserted;
      },
    );
  }
}
