import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../core/store';
import { signedIn } from '../core/session';
import type { AppSocket } from '../core/socket';
import { listenToSocket } from './realtime';
import { notificationsApi, applyPushedNotification } from '../features/notifications/notificationsApi';
import { messagesApi, applyPushedMessage } from '../features/messages/messagesApi';
import { squadsApi } from '../features/squads/squadsApi';
import { moderationApi } from '../features/moderation/moderationApi';
import { REFETCH_WINDOW_MS } from './realtime';
import type { AuthUser, NotificationView, ConversationView, MessageView } from '@app/contracts';

const card = { id: 'other', username: 'other', display_name: 'Other', profile_image_url: null };
const member = { id: 'u1', username: 'ayse', email: 'ayse@demo.local', display_name: 'Ayşe', role: 'member' } as AuthUser;
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

describe('a (re)connected socket reads again what pushes keep current', () => {
  /** A socket whose handlers the test calls itself. */
  function fakeSocket() {
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const s = {
      on: (event: string, fn: (...args: unknown[]) => void) => void handlers.set(event, fn),
      off: (event: string) => void handlers.delete(event),
    };
    return { socket: s as unknown as AppSocket, fire: (event: string) => handlers.get(event)?.(), handlers };
  }

  afterEach(() => vi.unstubAllGlobals());

  it('on connect: the member (a role changed while no socket listened) and the unread count are asked again', async () => {
    const asked: string[] = [];
    vi.stubGlobal('Request', class extends Request {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
      }
    });
    vi.stubGlobal('fetch', async (req: Request) => {
      const path = new URL(req.url).pathname;
      asked.push(path);
      const data = path === '/api/auth/me' ? { ...member, role: 'moderator' } : { unread_count: 7 };
      return new Response(JSON.stringify({ success: true, data }), { headers: { 'content-type': 'application/json' } });
    });
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user: member }));
    await store.dispatch(notificationsApi.util.upsertQueryData('unreadCount', undefined, 2));
    const badge = store.dispatch(notificationsApi.endpoints.unreadCount.initiate()); // the bell's subscription
    const { socket, fire, handlers } = fakeSocket();
    const stop = listenToSocket(socket, member.id, store.dispatch);

    fire('connect');
    await vi.waitFor(() => expect(store.getState().session.user?.role).toBe('moderator'));
    await vi.waitFor(() => expect(notificationsApi.endpoints.unreadCount.select()(store.getState()).data).toBe(7));
    expect(asked).toEqual(expect.arrayContaining(['/api/auth/me', '/api/notifications/unread-count']));

    stop();
    expect(handlers.size).toBe(0);
    badge.unsubscribe();
  });

  it('a squad or moderation push reads the open squad page, its requests and the queue again, once per window (issue 43 §4)', async () => {
    vi.useFakeTimers();
    const asked: string[] = [];
    vi.stubGlobal('Request', class extends Request {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
      }
    });
    vi.stubGlobal('fetch', async (req: Request) => {
      const url = new URL(req.url);
      asked.push(url.pathname);
      const data = url.pathname.endsWith('/join-requests') || url.pathname.startsWith('/api/moderation') ? [] : { id: 's1' };
      return new Response(JSON.stringify({ success: true, data }), { headers: { 'content-type': 'application/json' } });
    });
    const store = makeStore();
    store.dispatch(signedIn({ token: 'a.b.c', user: member }));
    const subs = [
      store.dispatch(squadsApi.endpoints.squad.initiate('s1')),
      store.dispatch(squadsApi.endpoints.joinRequests.initiate('s1')),
      store.dispatch(moderationApi.endpoints.moderationReports.initiate('open')),
    ];
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    const { socket, handlers } = fakeSocket();
    const stop = listenToSocket(socket, member.id, store.dispatch);
    handlers.get('squad-changed')?.({ squadId: 's1' });
    handlers.get('squad-changed')?.({ squadId: 's1' });
    handlers.get('moderation-queue')?.({});
    expect(asked).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(REFETCH_WINDOW_MS);
    await vi.waitFor(() => expect(asked).toHaveLength(6));
    expect(asked.slice(3).sort()).toEqual(['/api/moderation/reports', '/api/squads/s1', '/api/squads/s1/join-requests']);
    stop();
    for (const sub of subs) sub.unsubscribe();
    vi.useRealTimers();
  });
});
