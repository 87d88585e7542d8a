import { EventPayloads, EventType } from '@app/contracts';
import { newId } from '@app/store';
import { probeStore, TestService } from '@app/testing';
import { followsCollection } from '../follows/follow.collection';
import { Member, registerMember, startSocial } from '../social.fixture';

/**
 * A bulk import's registrations and reviews reach social as runs (OnEventBatch): a run must leave
 * what its events one by one would, in a handful of writes instead of a few per event.
 */
describe('runs of registrations and reviews (set-based handlers)', () => {
  let svc: TestService;
  let viewer: Member;

  beforeAll(async () => {
    svc = await startSocial();
    viewer = await registerMember(svc, 'Viewer');
  });

  afterAll(() => svc.close());

  const envelope = <T extends EventType>(type: T, payload: EventPayloads[T]) =>
    ({ id: newId(), type, version: 1, occurredAt: new Date().toISOString(), actorId: null, key: newId(), payload }) as never;
  /** Published in one tick: the consumer takes them as one group, so each run of a type as one array. */
  const deliverTogether = async (events: never[]) => {
    events.forEach((event) => void svc.transport.publish(event));
    await svc.settle();
  };
  const registration = (userId: string, username: string) =>
    envelope('user.registered', { userId, username, email: `${username}@example.com`, display_name: username, name: username, profile_image_url: null, created_at: new Date().toISOString() });
  const profile = async (username: string) => (await svc.http().get(`/api/users/profile/${username}`).set(viewer.auth)).body.data;

  it('a run of registrations creates each profile once, with the follows that came before it counted', async () => {
    const ids = Array.from({ length: 12 }, () => newId());
    await svc.store.collection(followsCollection).insert({ follower_id: ids[0], followee_id: viewer.id, status: 'following', requested_at: new Date().toISOString(), since: new Date().toISOString() });
    const probe = probeStore(svc.store);
    try {
      await deliverTogether([...ids.map((id, i) => registration(id, `run_${i}`)), registration(ids[1], 'run_1_again'), registration(viewer.id, 'viewer_again')]);
      expect(probe.writes).toBeLessThanOrEqual(2); // the profiles, the inbox
    } finally {
      probe.stop();
    }
    expect((await profile('run_0')).following_count).toBe(1);
    expect((await profile('run_1')).id).toBe(ids[1]);
    expect((await svc.http().get('/api/users/profile/run_1_again').set(viewer.auth)).status).toBe(404);
    expect((await profile(viewer.username)).id).toBe(viewer.id);
  });

  it('a run of reviews counts each review once, a replayed one included', async () => {
    const author = await registerMember(svc, 'Author');
    const review = (reviewId: string) => envelope('review.created', { reviewId, authorId: author.id, productId: null, productName: null, rating: 4, title: '', excerpt: 'x', created_at: new Date().toISOString() });
    await svc.publish('review.created', { reviewId: 'seen', authorId: author.id, productId: null, productName: null, rating: 4, title: '', excerpt: 'x', created_at: new Date().toISOString() });
    const probe = probeStore(svc.store);
    try {
      await deliverTogether(Array.from({ length: 10 }, (_, i) => review(`fresh-${i}`)));
      expect(probe.writes).toBeLessThanOrEqual(2); // the rows, the inbox
      await deliverTogether([review('seen'), review('fresh-0'), review('fresh-10')]);
    } finally {
      probe.stop();
    }
    expect((await profile(author.username)).reviews_count).toBe(12);
  });
});
