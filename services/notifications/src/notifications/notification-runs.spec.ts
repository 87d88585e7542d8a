import { newId } from '@app/store';
import { createTestService, StoreProbe, TestService } from '@app/testing';
import { addMember, Member, ProbedFollowing, probedFollowing, publishRun } from '../notifications.fixture';
import { notificationsService } from '../notifications.service-definition';

/**
 * What a bulk import's runs of events cost here in store operations: whatever their length, the
 * same statements, but for the proof checks (CHECK_PROOFS, tests only), one per notification.
 */
describe('notifications: store operations per run of events', () => {
  let svc: TestService;
  let author: Member;
  let followers: Member[];
  let probe: StoreProbe;
  let measure: ProbedFollowing['measure'];

  beforeAll(async () => {
    svc = await createTestService(notificationsService);
    ({ author, followers, probe, measure } = await probedFollowing(svc));
  });

  afterAll(async () => {
    probe.stop();
    await svc.close();
  });

  // The group's inbox lookup, the followers of the authors, the existing notifications (members,
  // blocks, mutes: the document cache's); the notifications, their outbox rows, the inbox rows.
  it('a run of reviews: 3 reads and 3 writes, 2 reviews or 8, beside the proof checks', async () => {
    const run = (n: number) =>
      publishRun(
        svc,
        Array.from({ length: n }, () => {
          const reviewId = newId();
          return { type: 'review.created' as const, payload: { reviewId, authorId: author.id, productId: null, productName: null, rating: null, title: 'T', excerpt: 'C', created_at: new Date().toISOString() }, key: reviewId };
        }),
      );
    await run(1);
    expect(await measure(() => run(2))).toEqual({ reads: 3 + 2 * followers.length, writes: 3 });
    expect(await measure(() => run(8))).toEqual({ reads: 3 + 8 * followers.length, writes: 3 });
    expect(svc.emitted('notification.created').filter((e) => e.notification.type === 'new_review')).toHaveLength(11 * followers.length);
  });

  // The inbox, the follows already stored, the members, the blocks each way, the mutes, the
  // existing notifications; the follows, the notifications, their outbox rows, their emails, the inbox rows.
  it('a run of follows: 7 reads and 5 writes, 2 follows or 8, beside the proof checks', async () => {
    const fans: Member[] = [];
    for (let i = 0; i < 10; i++) fans.push(await addMember(svc, `Fan ${i}`));
    const run = (of: Member[]) => publishRun(svc, of.map((fan) => ({ type: 'follow.created' as const, payload: { followerId: fan.id, followeeId: author.id }, key: author.id })));
    expect(await measure(() => run(fans.slice(0, 2)))).toEqual({ reads: 7 + 2, writes: 5 });
    expect(await measure(() => run(fans.slice(2)))).toEqual({ reads: 7 + 8, writes: 5 });
    expect(svc.emitted('notification.created').filter((e) => e.notification.type === 'new_follower')).toHaveLength(followers.length + fans.length);
  });
});
