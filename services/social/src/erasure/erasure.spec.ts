import { TestService } from '@app/testing';
import { activitiesCollection } from '../stats/activity.collection';
import { blocksCollection } from '../blocks/block.collection';
import { followsCollection } from '../follows/follow.collection';
import { mutesCollection } from '../mutes/mute.collection';
import { profilesCollection } from '../profiles/profile.collection';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('social erasure (user.deleted)', () => {
  let svc: TestService;
  let gone: Member;
  let ali: Member;
  let burak: Member;
  let private_: Member;

  beforeAll(async () => {
    svc = await startSocial();
    [gone, ali, burak] = [await registerMember(svc, 'Gone'), await registerMember(svc, 'Ali'), await registerMember(svc, 'Burak')];
    private_ = await registerMember(svc, 'Private', 'private');
    const follow = (by: Member, target: Member) => svc.http().post(`/api/follows/users/${target.id}`).set(by.auth);
    await follow(gone, ali);
    await follow(ali, gone);
    await follow(burak, gone);
    await follow(burak, ali);
    await follow(gone, private_); // a pending request
    await svc.http().post(`/api/users/${burak.id}/block`).set(gone.auth);
    await svc.http().post(`/api/users/${gone.id}/mute`).set(ali.auth);
    await svc.publish('review.created', {
      reviewId: 'r1', authorId: gone.id, productId: null, productName: null, rating: null, title: 't', excerpt: 'e', created_at: new Date().toISOString(),
    });
  });

  afterAll(() => svc.close());

  const profile = (m: Member) => svc.store.collection(profilesCollection).findById(m.id);
  const involving = (a: string, b: string) => ({ $or: [{ [a]: gone.id }, { [b]: gone.id }] });

  it('erases the profile, follows both ways, requests, blocks, mutes and stats, and recounts the others exactly; twice is the same', async () => {
    for (let delivery = 0; delivery < 2; delivery++) {
      await svc.publish('user.deleted', { userId: gone.id });
      expect(await profile(gone)).toBeNull();
      expect(await svc.store.collection(followsCollection).count(involving('follower_id', 'followee_id'))).toBe(0);
      expect(await svc.store.collection(blocksCollection).count(involving('blocker_id', 'blocked_id'))).toBe(0);
      expect(await svc.store.collection(mutesCollection).count(involving('muter_id', 'muted_id'))).toBe(0);
      expect(await svc.store.collection(activitiesCollection).count({ user_id: gone.id })).toBe(0);
      // Ali: followed by Burak only now, follows nobody; Burak follows Ali only.
      expect(await profile(ali)).toMatchObject({ followers_count: 1, following_count: 0 });
      expect(await profile(burak)).toMatchObject({ followers_count: 0, following_count: 1 });
      expect(await profile(private_)).toMatchObject({ followers_count: 0, following_count: 0 });
    }
    const requests = await svc.http().get('/api/follows/requests').set(private_.auth);
    expect(requests.body.data).toEqual([]);
  });

  it('ignores a late review or squad join of theirs and refuses their still-signed token (issue 31 §2)', async () => {
    await svc.publish('user.deleted', { userId: gone.id });
    const at = new Date().toISOString();
    await svc.publish('review.created', { reviewId: 'r-late', authorId: gone.id, productId: null, productName: null, rating: null, title: 't', excerpt: 'e', created_at: at }, 'r-late', gone.id);
    await svc.publish('squad.member_joined', { squadId: 's-late', squadName: 'Late', userId: gone.id, role: 'member', joined_at: at }, 's-late', gone.id);
    await svc.publish('user.registered', { userId: gone.id, username: 'gone_again', email: 'gone@example.com', display_name: 'Gone', name: 'Gone', profile_image_url: null, created_at: at }, gone.id, gone.id);
    expect(await svc.store.collection(activitiesCollection).count({ user_id: gone.id })).toBe(0);
    expect(await profile(gone)).toBeNull();
    const follow = await svc.http().post(`/api/follows/users/${ali.id}`).set(gone.auth);
    expect(follow.status).toBe(401);
    expect(await svc.store.collection(followsCollection).count({ follower_id: gone.id })).toBe(0);
  });

  it('finishes the job when a crash left the rows half erased (the counters were already recounted)', async () => {
    const cem = await registerMember(svc, 'Cem');
    const half = await registerMember(svc, 'Half');
    await svc.http().post(`/api/follows/users/${cem.id}`).set(half.auth);
    // As if the first run stopped after recounting: Cem's count already excludes Half.
    await svc.store.collection(profilesCollection).updateOne({ _id: cem.id }, { $set: { followers_count: 0 } });
    await svc.publish('user.deleted', { userId: half.id });
    expect(await svc.store.collection(followsCollection).count({ follower_id: half.id })).toBe(0);
    expect(await profile(cem)).toMatchObject({ followers_count: 0 });
    expect(await profile(half)).toBeNull();
  });
});
