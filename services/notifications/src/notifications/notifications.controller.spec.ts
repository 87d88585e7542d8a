import { NotificationView } from '@app/contracts';
import { createTestService, TestService } from '@app/testing';
import { notificationsService } from '../notifications.service-definition';
import { addMember, like, Member, notificationsOf, unreadCountOf } from '../notifications.fixture';

describe('notifications service: HTTP routes', () => {
  let svc: TestService;
  let ayse: Member;
  let burak: Member;
  let cem: Member;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
  });

  afterAll(() => svc.close());

  beforeEach(async () => {
    ayse = await addMember(svc, 'Ayşe Yılmaz');
    burak = await addMember(svc, 'Burak Kaya');
    cem = await addMember(svc, 'Cem Demir');
  });

  /** Burak likes `count` of Ayşe's reviews; her notifications come back newest first. */
  const likes = async (count: number) => {
    for (let i = 0; i < count; i++) await like(svc, burak, ayse);
    return notificationsOf(svc, ayse, '?limit=50');
  };
  const list = (member: Member, query = '') => svc.http().get(`/api/notifications${query}`).set(member.auth);

  it('refuses every route without a token', async () => {
    expect((await svc.http().get('/api/notifications')).status).toBe(401);
    expect((await svc.http().get('/api/notifications/unread-count')).status).toBe(401);
    expect((await svc.http().put('/api/notifications/mark-all-read')).status).toBe(401);
    expect((await svc.http().put('/api/notifications/x/read')).status).toBe(401);
    expect((await svc.http().delete('/api/notifications/x')).status).toBe(401);
  });

  describe('GET /notifications', () => {
    it('lists newest first, 20 by default, with list meta and unread_count', async () => {
      await likes(22);
      const res = await list(ayse);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toHaveLength(20);
      expect(res.body.meta).toEqual({ total: 22, page: 1, limit: 20, totalPages: 2, unread_count: 22 });
      const times = (res.body.data as NotificationView[]).map((n) => n.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(Object.keys(res.body.data[0]).sort()).toEqual([
        'created_at',
        'id',
        'is_read',
        'message',
        'related_user',
        'type',
      ]);

      const page2 = await list(ayse, '?page=2');
      expect(page2.body.data).toHaveLength(2);
      expect(page2.body.meta).toMatchObject({ page: 2, total: 22 });
      const ids = new Set([...res.body.data, ...page2.body.data].map((n: NotificationView) => n.id));
      expect(ids.size).toBe(22);
    });

    it('gives up to 50 at once and refuses more with a field error', async () => {
      await likes(3);
      expect((await list(ayse, '?limit=50')).status).toBe(200);
      const res = await list(ayse, '?limit=51');
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['limit']);
    });

    it("filters with unread_only=true, keeps everything with 'false', and refuses other values", async () => {
      const [newest, older] = await likes(2);
      await svc.http().put(`/api/notifications/${older.id}/read`).set(ayse.auth).expect(200);

      const unread = await list(ayse, '?unread_only=true');
      expect(unread.body.data.map((n: NotificationView) => n.id)).toEqual([newest.id]);
      expect(unread.body.meta).toMatchObject({ total: 1, unread_count: 1 });

      const all = await list(ayse, '?unread_only=false&page=1&limit=5');
      expect(all.body.meta).toMatchObject({ total: 2, unread_count: 1, limit: 5 });

      for (const query of ['?unread_only=yes', '?unread_only=1', '?page=0', '?limit=abc', '?since=today']) {
        const res = await list(ayse, query);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
      }
    });

    it("shows only the caller's own notifications", async () => {
      await likes(2);
      const res = await list(cem);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta).toMatchObject({ total: 0, unread_count: 0 });
    });
  });

  it('GET /notifications/unread-count counts unread ones', async () => {
    await likes(3);
    const res = await svc.http().get('/api/notifications/unread-count').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { unread_count: 3 } });
    expect(await unreadCountOf(svc, cem)).toBe(0);
  });

  describe('PUT /notifications/{id}/read', () => {
    it('marks one read and lowers the count by one; again is harmless', async () => {
      const [first] = await likes(2);
      const res = await svc.http().put(`/api/notifications/${first.id}/read`).set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Notification marked as read');
      expect(res.body.data).toMatchObject({ id: first.id, is_read: true, message: 'Burak Kaya liked your review' });
      expect(await unreadCountOf(svc, ayse)).toBe(1);
      await svc.http().put(`/api/notifications/${first.id}/read`).set(ayse.auth).expect(200);
      expect(await unreadCountOf(svc, ayse)).toBe(1);
    });

    it("answers 404 for someone else's notification or an unknown id, and changes nothing", async () => {
      const [first] = await likes(1);
      for (const id of [first.id, 'nope', 'x'.repeat(300)]) {
        const res = await svc.http().put(`/api/notifications/${id}/read`).set(cem.auth);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, message: 'Notification not found', code: 'NOTIFICATION_NOT_FOUND' });
      }
      expect(await unreadCountOf(svc, ayse)).toBe(1);
    });
  });

  describe('PUT /notifications/mark-all-read', () => {
    it("marks all of the caller's read, nobody else's", async () => {
      await likes(3);
      await like(svc, burak, cem);
      const res = await svc.http().put('/api/notifications/mark-all-read').set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'All notifications marked as read',
        data: { marked: 3, unread_count: 0 },
      });
      expect(await unreadCountOf(svc, ayse)).toBe(0);
      expect((await notificationsOf(svc, ayse)).every((n) => n.is_read)).toBe(true);
      expect(await unreadCountOf(svc, cem)).toBe(1);
    });
  });

  describe('DELETE /notifications/{id}', () => {
    it('deletes the caller’s notification; a second delete is 404', async () => {
      const [first, second] = await likes(2);
      const res = await svc.http().delete(`/api/notifications/${first.id}`).set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Notification deleted', data: null });
      expect((await notificationsOf(svc, ayse)).map((n) => n.id)).toEqual([second.id]);
      expect(await unreadCountOf(svc, ayse)).toBe(1);
      expect((await svc.http().delete(`/api/notifications/${first.id}`).set(ayse.auth)).status).toBe(404);
    });

    it("answers 404 for someone else's notification and leaves it in place", async () => {
      const [first] = await likes(1);
      const res = await svc.http().delete(`/api/notifications/${first.id}`).set(cem.auth);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Notification not found');
      expect((await notificationsOf(svc, ayse)).map((n) => n.id)).toEqual([first.id]);
    });
  });
});
