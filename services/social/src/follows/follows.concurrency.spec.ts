import { FollowDoc, followsCollection } from './follow.collection';
import { ProfileDoc, profilesCollection } from '../profiles/profile.collection';
import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

/** Counters against the rows they count: they must agree exactly once concurrent writes settle. */
describe('follow counters under 50 concurrent requests', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startSocial();
  });

  afterAll(() => svc.close());

  const rows = () => svc.store.collection(followsCollection);
  const profile = (id: string) => svc.store.collection(profilesCollection).findById(id) as Promise<ProfileDoc>;

  async function expectCountersMatchRows(members: Member[]): Promise<void> {
    for (const m of members) {
      const [doc, followers, following] = await Promise.all([
        profile(m.id),
        rows().count({ followee_id: m.id, status: 'following' }),
        rows().count({ follower_id: m.id, status: 'following' }),
      ]);
      expect({ id: m.id, followers: doc.followers_count, following: doc.following_count }).toEqual({ id: m.id, followers, following });
      expect(doc.followers_count).toBeGreaterThanOrEqual(0);
      expect(doc.following_count).toBeGreaterThanOrEqual(0);
    }
  }

  const follow = (by: Member, target: Member) => svc.http().post(`/api/follows/users/${target.id}`).set(by.auth);
  const unfollow = (by: Member, target: Member) => svc.http().delete(`/api/follows/users/${target.id}`).set(by.auth);

  /**
   * Every store call waits a random 0-3 ms first, so the steps of racing requests interleave
   * in many orders instead of the one the in-memory engine's queue happens to give.
   */
  function jitterStore(): () => void {
    const proto = Object.getPrototypeOf(rows()) as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const names = ['insert', 'findOne', 'find', 'count', 'updateOne', 'findOneAndUpdate', 'deleteOne'];
    const originals = names.map((n) => proto[n]);
    names.forEach((n, i) => {
      proto[n] = async function (this: unknown, ...args: unknown[]) {
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
        return originals[i].apply(this, args);
      };
    });
    return () => names.forEach((n, i) => (proto[n] = originals[i]));
  }

  it('50 different users alternating follow and unfollow on one account: exact counts', async () => {
    const star = await registerMember(svc, 'Star');
    const fans = await Promise.all(Array.from({ length: 50 }, (_, i) => registerMember(svc, `Fan ${i}`)));
    // Odd fans already follow, so their unfollow really removes something.
    for (const [i, fan] of fans.entries()) if (i % 2 === 1) expect((await follow(fan, star)).status).toBe(200);
    expect((await profile(star.id)).followers_count).toBe(25);

    const restore = jitterStore();
    const replies = await Promise.all(fans.map((fan, i) => (i % 2 === 0 ? follow(fan, star) : unfollow(fan, star)))).finally(restore);
    expect(replies.map((r) => r.status)).toEqual(fans.map(() => 200));

    expect((await profile(star.id)).followers_count).toBe(25);
    expect(await rows().count({ followee_id: star.id, status: 'following' })).toBe(25);
    await expectCountersMatchRows([star, ...fans]);
  });

  it('25 users each sending a follow and an unfollow at the same time (50 requests): counters equal rows', async () => {
    const star = await registerMember(svc, 'Racer Star');
    const fans = await Promise.all(Array.from({ length: 25 }, (_, i) => registerMember(svc, `Racer ${i}`)));
    const requests = Array.from({ length: 50 }, (_, i) => {
      const fan = fans[i % 25];
      return i % 2 === 0 ? follow(fan, star) : unfollow(fan, star);
    });
    const restore = jitterStore();
    const replies = await Promise.all(requests).finally(restore);
    // A racing unfollow may find nothing yet (404); nothing else is acceptable.
    for (const r of replies) expect([200, 404]).toContain(r.status);
    await expectCountersMatchRows([star, ...fans]);
  });

  it('concurrent duplicate follows create one row and count once', async () => {
    const star = await registerMember(svc, 'Dup Star');
    const fan = await registerMember(svc, 'Dup Fan');
    const replies = await Promise.all(Array.from({ length: 10 }, () => follow(fan, star)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(9);
    const edges: FollowDoc[] = await rows().find({ follower_id: fan.id, followee_id: star.id });
    expect(edges).toHaveLength(1);
    expect((await profile(star.id)).followers_count).toBe(1);
    expect((await profile(fan.id)).following_count).toBe(1);
  });

  it('never lowers a counter below 0, even from a wrong stored value', async () => {
    const a = await registerMember(svc, 'Zero A');
    const b = await registerMember(svc, 'Zero B');
    await follow(a, b);
    // Simulate a counter that drifted to 0 while the row exists.
    await svc.store.collection(profilesCollection).updateOne({ _id: b.id }, { $set: { followers_count: 0 } });
    expect((await unfollow(a, b)).status).toBe(200);
    expect((await profile(b.id)).followers_count).toBe(0);
  });
});
