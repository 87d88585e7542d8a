import { describe, expect, it } from 'vitest';
import { makeStore } from '../core/store';
import { notificationsApi, applyPushedNotification } from '../features/notifications/notificationsApi';
import { messagesApi, applyPushedMessage } from '../features/messages/messagesApi';
import type { NotificationView, ConversationView, MessageView } from '@app/contracts';

const card = { id: 'other', username: 'other', display_name: 'Other', profile_image_url: null };
const note = (id: string): NotificationView => ({ id, type: 'new_follower', message: 'x', is_read: false, created_at: new Date().toISOString(), related_user: card });

describe('pushed payloads written into the cache', () => {
  it('a notification goes first in the first page and raises the unread count', async () => {
    const store = makeStore();
    await store.dispatch(notificationsApi.util.upsertQueryData('unreadCount', undefined, 2));
    await store.dispatch(notificationsApi.util.upsertQueryData('notifications', { page: 1, limit: 5 }, { items: [note('a')], unread_count: 2, total: 1 }));
    store.dispatch(applyPushedNotification(note('b')));
    store.dispatch(applyPushedNotification(note('b'))); // delivered twice: counted once in the list
    const list = notificationsApi.endpoints.notifications.select({ page: 1, limit: 5 })(store.getState()).data!;
    expect(list.items.map((n) => n.id)).toEqual(['b', 'a']);
    expect(list.unread_count).toBe(3);
  });

  it('a message becomes its conversation last message, unread +1, list re-sorted; unknown conversation asks for a refetch', async () => {
    const store = makeStore();
    const old = '2024-01-01T00:00:00.000Z';
    const conv = (id: string): ConversationView => ({
      id,
      name: null,
      is_group: false,
      squad_id: null,
      other_members: [card],
      members: [card],
      last_message: null,
      created_at: old,
      updated_at: old,
      unread_count: 0,
      other_read_at: null,
    });
    await store.dispatch(messagesApi.util.upsertQueryData('conversations', undefined, [conv('c1'), conv('c2')]));
    const m: MessageView = { id: 'm1', conversation_id: 'c2', sender_id: 'other', sender: card, content: 'hi', created_at: new Date().toISOString(), edited_at: null, deleted: false, reactions: [], attachments: [] };
    expect(store.dispatch(applyPushedMessage(m, 'me', null))).toBe(true);
    const list = messagesApi.endpoints.conversations.select()(store.getState()).data!;
    expect(list[0]).toMatchObject({ id: 'c2', unread_count: 1, last_message: { id: 'm1', content: 'hi' } });
    expect(store.dispatch(applyPushedMessage({ ...m, id: 'm2', conversation_id: 'c9' }, 'me', null))).toBe(false);
  });
});
