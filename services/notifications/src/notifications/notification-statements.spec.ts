import { EventBus } from '@app/bus';
import { newId } from '@app/store';
import { createTestService, StoreProbe, TestService } from '@app/testing';
import { addMember, like, Member, ProbedFollowing, probedFollowing, pushesTo } from '../notifications.fixture';
import { notificationsCollection } from './notification.collection';
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
  let measure: ProbedFollowing['measure'];

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    liker = await addMember(svc, 'Liker');
    ({ author, followers, probe, measure } = await probedFollowing(svc));
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  // The inbox lookup, the notification it may repeat, the proof check (tests only); the notification,
  // its event's outbox row and the inbox row. The members (both cards, preferences, standing), the
  // block either way and the mute are lookups by id or by pair that the document cache answers
  // once the first like read them (4 more reads then).
  it('a like: 3 reads and 3 writes once the two members were seen, its proof check included', async () => {
    expect(await measure(() => like(svc, liker, author))).toEqual({ reads: 7, writes: 3 });
    for (let i = 0; i < 2; i++) {
      expect(await measure(() => like(svc, liker, author))).toEqual({ reads: 3, writes: 3 });
    }
    expect(pushesTo(svc, author).filter((e) => e.notification.type === 'review_liked')).toHaveLength(3);
  });

  // The inbox lookup and the followers; the existing notifications of all five at once; the five
  // proof checks (tests only); the five notifications and their five outbox rows in one insert
  // each, the inbox row. The members, blocks and mutes of all five come from the document cache
  // after the first review read them.
  it('a review told to five followers: 8 reads and 3 writes, not a round per follower', async () => {
    const review = () => {
      const reviewId = newId();
      return svc.publish('review.created', { reviewId, authorId: author.id, productId: null, productName: null, rating: null, title: 'T', excerpt: 'C', tags: [], created_at: new Date().toISOString() }, reviewId, author.id);
    };
    expect((await measure(review)).reads).toBeLessThanOrEqual(11);
    expect(await measure(review)).toEqual({ reads: 8, writes: 3 });
    const told = svc.emitted('notification.created').filter((e) => e.notification.type === 'new_review').map((e) => e.recipientId);
    expect(told.sort()).toEqual([...followers, ...followers].map((f) => f.id).sort());
  });

  // One group of the in-process bus: the run of likes is read together (the notifications they may
  // repeat) and told in order (`Notifier.notifyMany`). Four likers, the author's own like and a repeat among
  // them: four notifications, the repeat refreshing the first (its own lookup). One at a time the
  // run read the notifications five times.
  it('a run of likes in one delivery: one read of the notifications they repeat, not one per like', async () => {
    const likers = [await addMember(svc, 'Ali'), await addMember(svc, 'Bea'), await addMember(svc, 'Cem'), await addMember(svc, 'Dan')];
    for (const m of likers) await like(svc, m, author); // each member seen once: their cards come from the cache
    const reviewId = newId();
    const liked = (m: Member) =>
      svc.transport.publish({ id: newId(), type: 'review.liked', version: 1, occurredAt: new Date().toISOString(), actorId: m.id, key: reviewId, payload: { reviewId, reviewAuthorId: author.id, userId: m.id, likeCount: 1 } });
    await svc.app.get(EventBus).dropPublished();
    probe.reset();
    await Promise.all([...likers, author, likers[0]].map(liked)); // queued before the bus hands them over: one group
    await svc.settle();
    // The group's inbox, the notifications, the repeat's lookup, four proof checks (tests only); the
    // four notifications in one insert and their outbox rows in another, the repeat's refresh, the
    // group's inbox rows.
    expect({ reads: probe.reads, writes: probe.writes }).toEqual({ reads: 7, writes: 4 });
    const stored = await svc.store.collection(notificationsCollection).find({ subject_id: reviewId });
    expect(stored.map((n) => n.actor_id).sort()).toEqual(likers.map((m) => m.id).sort());
    const ids = new Set(stored.map((n) => n._id));
    expect(pushesTo(svc, author).filter((e) => ids.has(e.notificationId))).toHaveLength(4); // the repeat refreshed an unread one: no push
  });
});
