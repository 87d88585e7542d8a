import { describe, expect, it } from 'vitest';
import { makeStore } from '../../core/store';
import { applyConversationRead, applyMessageChange, changeMessage, messagesApi, seenMessageId } from './messagesApi';
import type { ConversationView, MessageView } from '@app/contracts';

const card = { id: 'ayse', username: 'ayse', display_name: 'Ayse', profile_image_url: null };
const at = '2026-11-23T10:00:00.000Z';
const msg = (id: string, extra: Partial<MessageView> = {}): MessageView => ({
  id,
  conversation_id: 'c1',
  sender_id: 'ayse',
  sender: card,
  content: `text ${id}`,
  created_at: at,
  edited_at: null,
  deleted: false,
  reactions: [],
  attachments: [],
  ...extra,
});
const conv: ConversationView = {
  id: 'c1',
  name: null,
  is_group: false,
  squad_id: null,
  other_members: [card],
  members: [card],
  last_message: { id: 'm2', content: 'text m2', sender: card, created_at: at, deleted: false, images: 0 },
  created_at: at,
  updated_at: at,
  unread_count: 0,
  other_read_at: null,
};

async function seeded() {
  const store = makeStore();
  await store.dispatch(messagesApi.util.upsertQueryData('messages', 'c1', [msg('m1'), msg('m2')]));
  await store.dispatch(messagesApi.util.upsertQueryData('conversations', undefined, [conv]));
  const read = () => ({
    messages: messagesApi.endpoints.messages.select('c1')(store.getState()).data!,
    preview: messagesApi.endpoints.conversations.select()(store.getState()).data![0].last_message!,
  });
  return { store, read };
}

describe('live edits, deletes and reactions in the cache', () => {
  it('an edit changes the text and marks it edited; the preview follows only for the last message', async () => {
    const { store, read } = await seeded();
    store.dispatch(applyMessageChange('c1', 'm1', { kind: 'updated', conversationId: 'c1', messageId: 'm1', content: 'fixed', edited_at: at }, 'me'));
    expect(read().messages[0]).toMatchObject({ content: 'fixed', edited_at: at });
    expect(read().preview.content).toBe('text m2');
    store.dispatch(applyMessageChange('c1', 'm2', { kind: 'updated', conversationId: 'c1', messageId: 'm2', content: 'new last', edited_at: at }, 'me'));
    expect(read().preview.content).toBe('new last');
  });

  it('a delete leaves a blank tombstone without reactions, also in the preview; a late edit does not revive it', async () => {
    const { store, read } = await seeded();
    store.dispatch(applyMessageChange('c1', 'm2', { kind: 'deleted', conversationId: 'c1', messageId: 'm2' }, 'me'));
    expect(read().messages[1]).toMatchObject({ content: '', deleted: true, reactions: [] });
    expect(read().preview).toMatchObject({ content: '', deleted: true });
    store.dispatch(applyMessageChange('c1', 'm2', { kind: 'updated', conversationId: 'c1', messageId: 'm2', content: 'zombie', edited_at: at }, 'me'));
    expect(read().messages[1].content).toBe('');
  });

  it('reaction counts come from the push; the viewer flag moves only for the viewer own change', () => {
    const m = msg('m1', { reactions: [{ emoji: '👍', count: 1, me: true }] });
    const push = (userId: string, emoji: string, added: boolean, reactions: { emoji: string; count: number }[]) =>
      changeMessage(m, { kind: 'reactions', conversationId: 'c1', messageId: 'm1', userId, emoji, added, reactions }, 'me');
    push('burak', '❤️', true, [
      { emoji: '👍', count: 1 },
      { emoji: '❤️', count: 1 },
    ]);
    expect(m.reactions).toEqual([
      { emoji: '👍', count: 1, me: true },
      { emoji: '❤️', count: 1, me: false },
    ]);
    push('me', '❤️', true, [
      { emoji: '👍', count: 1 },
      { emoji: '❤️', count: 2 },
    ]);
    push('me', '👍', false, [{ emoji: '❤️', count: 2 }]);
    expect(m.reactions).toEqual([{ emoji: '❤️', count: 2, me: true }]);
  });

  it('a reply replaces the cached message with the server view', async () => {
    const { store, read } = await seeded();
    const reply = msg('m1', { reactions: [{ emoji: '😂', count: 3, me: true }] });
    store.dispatch(applyMessageChange('c1', 'm1', { kind: 'view', message: reply }, 'me'));
    expect(read().messages[0].reactions).toEqual([{ emoji: '😂', count: 3, me: true }]);
  });
});

describe('read receipts', () => {
  const mine = (id: string, created_at: string, extra: Partial<MessageView> = {}) => msg(id, { sender_id: 'me', created_at, ...extra });
  const later = '2026-11-23T10:05:00.000Z';

  it('"Seen" goes under my newest message at or before the other member read marker, never in a group', () => {
    const list = [mine('m1', at), msg('m2', { created_at: at }), mine('m3', later)];
    expect(seenMessageId(list, { ...conv, other_read_at: null }, 'me')).toBeNull();
    expect(seenMessageId(list, { ...conv, other_read_at: at }, 'me')).toBe('m1');
    expect(seenMessageId(list, { ...conv, other_read_at: later }, 'me')).toBe('m3');
    expect(seenMessageId([mine('m1', at), mine('m3', later, { deleted: true })], { ...conv, other_read_at: later }, 'me')).toBe('m1');
    expect(seenMessageId(list, { ...conv, is_group: true, other_read_at: later }, 'me')).toBeNull();
  });

  it('a conversation-read push moves the other member marker forward only, and my own read clears my unread count', async () => {
    const store = makeStore();
    await store.dispatch(messagesApi.util.upsertQueryData('conversations', undefined, [{ ...conv, unread_count: 3 }]));
    const row = () => messagesApi.endpoints.conversations.select()(store.getState()).data![0];
    store.dispatch(applyConversationRead({ conversationId: 'c1', userId: 'ayse', readAt: later }, 'me'));
    expect(row()).toMatchObject({ other_read_at: later, unread_count: 3 });
    store.dispatch(applyConversationRead({ conversationId: 'c1', userId: 'ayse', readAt: at }, 'me'));
    expect(row().other_read_at).toBe(later);
    store.dispatch(applyConversationRead({ conversationId: 'c1', userId: 'me', readAt: later }, 'me'));
    expect(row()).toMatchObject({ other_read_at: later, unread_count: 0 });
  });
});
