import { io, Socket } from 'socket.io-client';
import request from 'supertest';
import { NotificationView } from '@app/contracts';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Session {
  id: string;
  token: string;
  auth: { Authorization: string };
}

/** A client as the spec's: long-polling only. Resolves once connected. */
function connect(url: string, token: string): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', transports: ['polling'], forceNew: true, reconnection: false, auth: { token } });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/**
 * Notifications through the gateway: a like in the reviews service reaches the author's
 * notifications by event, and the author's open socket at once.
 */
describe('notifications through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Session;
  let burak: Session;
  let cem: Session;
  let reviewId: string;

  const api = () => request(stack.url);
  const register = async (email: string, name: string): Promise<Session> => {
    const res = await api().post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    const token = res.body.data.token as string;
    return { id: res.body.data.user.id, token, auth: { Authorization: `Bearer ${token}` } };
  };
  const unreadCount = async (who: Session): Promise<number> => {
    const res = await api().get('/api/notifications/unread-count').set(who.auth);
    expect(res.status).toBe(200);
    return res.body.data.unread_count;
  };
  const list = async (who: Session): Promise<NotificationView[]> => {
    const res = await api().get('/api/notifications').set(who.auth);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const toggleLike = async (who: Session) => {
    await api().post(`/api/likes/reviews/${reviewId}`).set(who.auth).expect(200);
    await stack.settle();
  };

  beforeAll(async () => {
    stack = await startEmbeddedStack({
      port: 0,
      dataDir: ':memory:',
      seed: false,
      env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' },
    });
    ayse = await register('ayse@example.com', 'Ayşe Yılmaz');
    burak = await register('burak@example.com', 'Burak Kaya');
    cem = await register('cem@example.com', 'Cem Demir');
    await stack.settle();
    const review = await api()
      .post('/api/reviews')
      .set(ayse.auth)
      .send({ title: 'AeroPress Go', content: 'Small, sturdy, and the coffee is great.' });
    expect(review.status).toBe(201);
    reviewId = review.body.data.id;
    await stack.settle();
  });

  afterAll(() => stack.close());

  it('B likes A’s review: A’s socket gets `notification` within a second; one unread review_liked naming B', async () => {
    const socket = await connect(stack.url, ayse.token);
    const pushed: NotificationView[] = [];
    socket.on('notification', (n: NotificationView) => pushed.push(n));
    const started = Date.now();
    await api().post(`/api/likes/reviews/${reviewId}`).set(burak.auth).expect(200);
    while (pushed.length === 0 && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 20));
    socket.close();
    expect(pushed).toEqual([expect.objectContaining({ type: 'review_liked', message: 'Burak Kaya liked your review' })]);
    await stack.settle();
    expect(await unreadCount(ayse)).toBe(1);
    const [item, ...rest] = await list(ayse);
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      type: 'review_liked',
      message: 'Burak Kaya liked your review',
      is_read: false,
      related_user: { id: burak.id, display_name: 'Burak Kaya', username: 'burak_kaya' },
    });
    expect(await list(burak)).toEqual([]);
  });

  it('marking it read gives 0; unlike and like again do not pile up', async () => {
    const [item] = await list(ayse);
    const read = await api().put(`/api/notifications/${item.id}/read`).set(ayse.auth);
    expect(read.status).toBe(200);
    expect(await unreadCount(ayse)).toBe(0);

    await toggleLike(burak);
    await toggleLike(burak);
    const items = await list(ayse);
    expect(items.map((n) => [n.id, n.is_read])).toEqual([[item.id, false]]);
    expect(await unreadCount(ayse)).toBe(1);
  });

  it('mark-all-read clears the count, with a comment added', async () => {
    await api().post(`/api/reviews/${reviewId}/comments`).set(burak.auth).send({ content: 'Which grinder?' }).expect(201);
    await stack.settle();
    expect(await unreadCount(ayse)).toBe(2);
    expect((await list(ayse))[0]).toMatchObject({ type: 'comment', message: 'Burak Kaya commented on your review' });

    const res = await api().put('/api/notifications/mark-all-read').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(await unreadCount(ayse)).toBe(0);
    expect((await list(ayse)).every((n) => n.is_read)).toBe(true);
  });

  it('C can neither read nor delete A’s notification (404); A can delete it', async () => {
    const [item, other] = await list(ayse);
    const cemRead = await api().put(`/api/notifications/${item.id}/read`).set(cem.auth);
    const cemDelete = await api().delete(`/api/notifications/${item.id}`).set(cem.auth);
    expect(cemRead.status).toBe(404);
    expect(cemDelete.status).toBe(404);
    expect(cemDelete.body).toEqual({ success: false, message: 'Notification not found', code: 'NOTIFICATION_NOT_FOUND' });
    expect(await list(cem)).toEqual([]);

    const del = await api().delete(`/api/notifications/${item.id}`).set(ayse.auth);
    expect(del.status).toBe(200);
    expect((await list(ayse)).map((n) => n.id)).toEqual([other.id]);
  });

  it('refuses the notification routes without a token at the gateway', async () => {
    expect((await api().get('/api/notifications')).status).toBe(401);
    expect((await api().get('/api/notifications/unread-count')).status).toBe(401);
  });
});
