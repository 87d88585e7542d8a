import { MAILER, MailOutboxWorker, MemoryMailer } from '@app/platform';
import { createTestService, TestService } from '@app/testing';
import { emailOutboxCollection } from '../notifications/email-outbox.collection';
import { notificationsCollection } from '../notifications/notification.collection';
import { notificationsService } from '../notifications.service-definition';
import { Member, addMember, like, notificationsOf, unreadCountOf } from '../notifications.fixture';
import { followsCollection } from '../read-models/relation.collection';
import { membersCollection } from '../read-models/member.collection';

describe('notifications erasure (user.deleted)', () => {
  let svc: TestService;
  let gone: Member;
  let ali: Member;
  let burak: Member;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    [gone, ali, burak] = [await addMember(svc, 'Gone'), await addMember(svc, 'Ali'), await addMember(svc, 'Burak')];
    await svc.publish('follow.created', { followerId: gone.id, followeeId: ali.id });
    await svc.publish('follow.created', { followerId: ali.id, followeeId: gone.id });
    await like(svc, gone, ali);
    await like(svc, burak, ali);
    await like(svc, ali, gone);
  });

  afterAll(() => svc.close());

  it('erases notifications to and from the member with their emails, their follows and their address; twice is the same', async () => {
    expect(await unreadCountOf(svc, ali)).toBe(3);
    expect(await svc.store.collection(emailOutboxCollection).count({ user_id: gone.id })).toBeGreaterThan(0);
    await svc.app.get(MailOutboxWorker).drain();
    const sentTo = () => svc.app.get<MemoryMailer>(MAILER).sent.map((m) => m.to);
    expect(sentTo()).toContain(gone.email);
    for (let delivery = 0; delivery < 2; delivery++) {
      await svc.publish('user.deleted', { userId: gone.id });
      const theirs = { $or: [{ recipient_id: gone.id }, { actor_id: gone.id }] };
      expect(await svc.store.collection(notificationsCollection).count(theirs)).toBe(0);
      expect(await svc.store.collection(emailOutboxCollection).count({ user_id: gone.id })).toBe(0);
      // What was kept of the mails sent to them goes too (the .eml files without SMTP_URL); Ali's stay.
      expect(sentTo()).not.toContain(gone.email);
      expect(sentTo()).toContain(ali.email);
      expect(await svc.store.collection(followsCollection).count({ $or: [{ follower_id: gone.id }, { followee_id: gone.id }] })).toBe(0);
      expect(await svc.store.collection(membersCollection).findById(gone.id)).not.toHaveProperty('email');
      // Burak's like is all that is left for Ali.
      expect(await unreadCountOf(svc, ali)).toBe(1);
      expect((await notificationsOf(svc, ali)).map((n) => n.related_user?.id)).toEqual([burak.id]);
    }
  });

  it('tells no one of an event of theirs that arrives after the deletion', async () => {
    await like(svc, gone, burak);
    await svc.publish('follow.created', { followerId: ali.id, followeeId: gone.id });
    // A message of theirs still on the bus (issue 31 §2): no notification, no email.
    const card = { id: gone.id, username: gone.username, display_name: gone.name, profile_image_url: null };
    const message = { id: 'm-late', conversation_id: 'c-late', sender_id: gone.id, sender: card, content: 'late', created_at: new Date().toISOString() };
    await svc.publish('message.sent', { messageId: 'm-late', conversationId: 'c-late', senderId: gone.id, memberIds: [gone.id, burak.id], message }, 'c-late', gone.id);
    expect(await svc.store.collection(notificationsCollection).count({ $or: [{ recipient_id: gone.id }, { actor_id: gone.id }] })).toBe(0);
    expect(await svc.store.collection(emailOutboxCollection).count({ user_id: burak.id })).toBe(0);
  });
});
