import { EventBus } from '@app/bus';
import { newId } from '@app/store';
import { createTestService, probeStore, StoreProbe, TestService } from '@app/testing';
import { addMember, like, Member, pushesTo } from '../notifications.fixture';
import { notificationsService } from '../notifications.service-definition';

/**
 * What handling an event costs here in store operations (issue 28 §4, §5), counted by wrapping
 * the SQLite store's reads and writes. Under test every emitted event's proof is checked with one
 * more read (CHECK_PROOFS); the counts below include it.
 */
describe('notifications: store operations per event handled', () => {
  let svc: TestService;
  let author: Member;
  let liker: Member;
  let followers: Member[];
  let probe: StoreProbe;

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    [author, liker] = [await addMember(svc, 'Author'), await addMember(svc, 'Liker')];
    followers = [];
    for (let i = 0; i < 5; i++) followers.push(await addMember(svc, `Follower ${i}`));
    for (const f of followers) await svc.publish('follow.created', { followerId: f.id, followeeId: author.id });
    probe = probeStore(svc.store);
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  const measure = async (act: () => Promise<unknown>) => {
    await svc.app.get(EventBus).dropPublished(); // rows published before: not this event's cost
    probe.reset();
    await act();
    return { reads: probe.reads, writes: probe.writes };
  };

  // The inbox lookup; the members (both cards, preferences, standing), the block, the mute and
  // the notification it may repeat; the notification, its event's outbox row and the inbox row;
  // the proof check (tests only).
  it('a like: 6 reads and 3 writes, its proof check included', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await measure(() => like(svc, liker, author))).toEqual({ reads: 6, writes: 3 });
    }
    expect(pushesTo(svc, author).filter((e) => e.notification.type === 'review_liked')).toHaveLength(3);
  });

  // The inbox lookup and the followers; the members, blocks, mutes and existing notifications of
  // all five at once; the five notifications and their five outbox rows in one insert each, the
  // inbox row; the five proof checks (tests only).
  it('a review told to five followers: 11 reads and 3 writes, not a round per follower', async () => {
    const reviewId = newId();
    const cost = await measure(() => svc.publish('review.created', { reviewId, authorId: author.id, productId: null, productName: null, rating: null, title: 'T', excerpt: 'C', tags: [], created_at: new Date().toISOString() }, reviewId, author.id));
    expect(cost).toEqual({ reads: 11, writes: 3 });
    expect(svc.emitted('notification.created').filter((e) => e.notification.type === 'new_review').map((e) => e.recipientId).sort()).toEqual(followers.map((f) => f.id).sort());
  });
});
