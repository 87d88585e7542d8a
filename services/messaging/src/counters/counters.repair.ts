import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { CounterRepairPass, CountersFixed, fixCounters, PLATFORM_CONFIG, PlatformConfig, SERVICE_LOGGER } from '@app/platform';
import { Collection, STORE, Store } from '@app/store';
import { ConversationDoc, conversationsCollection, MemberStateDoc, memberStatesCollection } from '../conversations/conversation.collection';
import { MessageDoc, messagesCollection } from '../messages/message.collection';

/** How many of these sorted times are after `marker` (`inclusive`: at or after). */
function countSince(sorted: readonly string[], marker: string, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inclusive ? sorted[mid] < marker : sorted[mid] <= marker) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/** Message times per key, each list sorted. */
function sortedTimes(messages: readonly MessageDoc[], keyOf: (m: MessageDoc) => string): Map<string, string[]> {
  const times = new Map<string, string[]>();
  for (const m of messages) {
    const key = keyOf(m);
    const list = times.get(key);
    if (list) list.push(m.created_at);
    else times.set(key, [m.created_at]);
  }
  for (const list of times.values()) list.sort();
  return times;
}

/**
 * A member's unread_count, recomputed from the messages as ConversationsService moves it: +1 for
 * every message from someone else, back to 0 when the member reads the conversation or writes
 * in it (which sets last_read_at). So it is the number of messages from others after the member's
 * marker: last_read_at, or joined_at before the first read. A message in the same millisecond as
 * the marker may have landed on either side of it, so a stored count between "strictly after" and
 * "at or after" is right; outside it is set to the nearer bound. A crash between a message row
 * and the $inc of the others' counts leaves them short by that message.
 * Messages are read once with a projection and counted per conversation and per sender in memory;
 * the same read finds each conversation's newest message, for its last_message.
 */
@Injectable()
export class MessagingCountersRepair extends CounterRepairPass {
  private readonly messages: Collection<MessageDoc>;
  private readonly states: Collection<MemberStateDoc>;
  private readonly conversations: Collection<ConversationDoc>;

  constructor(@Inject(STORE) store: Store, @Inject(PLATFORM_CONFIG) config: PlatformConfig, @Inject(SERVICE_LOGGER) logger: Logger) {
    super(config, logger, store);
    this.messages = store.collection(messagesCollection);
    this.states = store.collection(memberStatesCollection);
    this.conversations = store.collection(conversationsCollection);
  }

  async repair(): Promise<CountersFixed> {
    const messages = await this.messages.find({}, { projection: { conversation_id: 1, sender_id: 1, created_at: 1 } });
    const byConversation = sortedTimes(messages, (m) => m.conversation_id);
    const bySender = sortedTimes(messages, (m) => `${m.conversation_id}\n${m.sender_id}`);
    const states = await this.states.find(
      {},
      { projection: { conversation_id: 1, user_id: 1, unread_count: 1, last_read_at: 1, joined_at: 1 } },
    );
    const unread = (s: MemberStateDoc): number => {
      const marker = s.last_read_at ?? s.joined_at;
      const all = byConversation.get(s.conversation_id) ?? [];
      const own = bySender.get(`${s.conversation_id}\n${s.user_id}`) ?? [];
      const after = countSince(all, marker, false) - countSince(own, marker, false);
      const atOrAfter = countSince(all, marker, true) - countSince(own, marker, true);
      const stored = typeof s.unread_count === 'number' ? s.unread_count : after;
      return Math.min(Math.max(stored, after), atOrAfter);
    };
    return {
      'conversation_members.unread_count': await fixCounters(this.states, states, ['unread_count'], unread),
      'conversations.last_message': await this.fixLastMessages(newestPerConversation(messages)),
    };
  }

  /**
   * A conversation's last_message is written after its message row, so a crash in between leaves
   * the list showing an older one. Each stale one is set to its newest message, guarded by the
   * updated_at read, so a message sent meanwhile is never replaced by an older one.
   */
  private async fixLastMessages(newest: Map<string, MessageDoc>): Promise<number> {
    const conversations = await this.conversations.find({}, { projection: { updated_at: 1, last_message: 1 } });
    let fixed = 0;
    for (const conversation of conversations) {
      const latest = newest.get(conversation._id);
      const last = conversation.last_message;
      // Messages of one millisecond are ordered by id, as the conversation lists them.
      if (!latest || (last && (last.created_at > latest.created_at || (last.created_at === latest.created_at && last.id >= latest._id)))) continue;
      const message = await this.messages.findById(latest._id);
      if (!message) continue;
      const res = await this.conversations.updateOne(
        { _id: conversation._id, updated_at: conversation.updated_at },
        {
          $set: {
            last_message: {
              id: message._id,
              content: message.content,
              sender_id: message.sender_id,
              created_at: message.created_at,
              images: message.attachments?.length ?? 0,
            },
            ...(conversation.updated_at < message.created_at && { updated_at: message.created_at }),
          },
        },
      );
      fixed += res.matched;
    }
    return fixed;
  }
}

/** Each conversation's newest message (id and time only: the projection the counts read). */
function newestPerConversation(messages: readonly MessageDoc[]): Map<string, MessageDoc> {
  const newest = new Map<string, MessageDoc>();
  for (const m of messages) {
    const seen = newest.get(m.conversation_id);
    if (!seen || m.created_at > seen.created_at || (m.created_at === seen.created_at && m._id > seen._id)) newest.set(m.conversation_id, m);
  }
  return newest;
}
