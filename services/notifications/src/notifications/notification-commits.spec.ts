import { EventBus } from '@app/bus';
import { createTestService, probeStore, StoreProbe, TestService } from '@app/testing';
import { addMember, like, Member, unreadCountOf } from '../notifications.fixture';
import { notificationsService } from '../notifications.service-definition';

/**
 * What a like costs here (issue 28 §4): its notification, the notification.created outbox row and
 * the inbox row of review.liked commit together, once; the published outbox row goes with the next commit.
 */
describe('notifications: one commit per review.liked', () => {
  let svc: TestService;
  let author: Member;
  let liker: Member;
  let probe: StoreProbe;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    [author, liker] = [await addMember(svc, 'Author'), await addMember(svc, 'Liker')];
    probe = probeStore(svc.store);
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  it('commits once per like, its notification and event included', async () => {
    for (const reviewId of ['r1', 'r2', 'r3']) {
      await svc.app.get(EventBus).dropPublished(); // rows published before: not this like's cost
      probe.reset();
      await like(svc, liker, author, reviewId);
      expect(probe.commits).toBe(1);
    }
    expect(svc.emitted('notification.created').map((e) => e.notification.type)).toEqual(['review_liked', 'review_liked', 'review_liked']);
    expect(await unreadCountOf(svc, author)).toBe(3);
  });

  it('a redelivered like commits nothing and tells no one twice', async () => {
    await svc.app.get(EventBus).dropPublished();
    probe.reset();
    const event = { id: 'same-event', type: 'review.liked', version: 1, occurredAt: new Date().toISOString(), actorId: liker.id, key: 'r9', payload: { reviewId: 'r9', reviewAuthorId: author.id, userId: liker.id, likeCount: 1 } };
    await svc.transport.publish(event as never);
    await svc.settle();
    expect(probe.commits).toBe(1);
    await svc.app.get(EventBus).dropPublished();
    probe.reset();
    await svc.transport.publish(event as never);
    await svc.settle();
    expect(probe.commits).toBe(0);
    expect(svc.emitted('notification.created').filter((e) => e.notification.type === 'review_liked')).toHaveLength(4);
  });
});
