import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('follows (HTTP)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startSocial();
  });

  afterAll(() => svc.close());

  const follow = (by: Member, target: Member | string) =>
    svc.http().post(`/api/follows/users/${typeof target === 'string' ? target : target.id}`).set(by.auth);
  const unfollow = (by: Member, target: Member) => svc.http().delete(`/api/follows/users/${target.id}`).set(by.auth);
  const status = (by: Member, target: Member) => svc.http().get(`/api/follows/status/${target.id}`).set(by.auth);
  const counts = async (m: Member) => {
    const res = await svc.http().get(`/api/users/profile/${m.username}`).set(m.auth);
    return { followers: res.body.data.followers_count as number, following: res.body.data.following_count as number };
  };

  describe('a public account', () => {
    let ali: Member;
    let burak: Member;

    beforeAll(async () => {
      ali = await registerMember(svc, 'Ali');
      burak = await registerMember(svc, 'Burak');
    });

    it('is followed at once: data.status following, both counters move, follow.created emitted', async () => {
      const res = await follow(ali, burak);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'You are now following this user', data: { status: 'following' } });
      expect(await counts(burak)).toEqual({ followers: 1, following: 0 });
      expect(await counts(ali)).toEqual({ followers: 0, following: 1 });
      await svc.settle();
      expect(svc.emitted('follow.created')).toContainEqual({ followerId: ali.id, followeeId: burak.id });
    });

    it("answers a second follow with 409 'You are already following this user' and keeps the counters", async () => {
      const res = await follow(ali, burak);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, message: 'You are already following this user', code: 'ALREADY_FOLLOWING' });
      expect(await counts(burak)).toEqual({ followers: 1, following: 0 });
    });

    it('reports the exact follow_status flags from both sides', async () => {
      expect((await status(ali, burak)).body.data).toEqual({
        isFollowing: true,
        isFollowed: false,
        isPending: false,
        isBlocked: false,
        isBlockedBy: false,
      });
      expect((await status(burak, ali)).body.data).toEqual({
        isFollowing: false,
        isFollowed: true,
        isPending: false,
        isBlocked: false,
        isBlockedBy: false,
      });
    });

    it('lists followers and following with each row\'s user card, paginated', async () => {
      const cem = await registerMember(svc, 'Cem');
      await follow(cem, burak);
      const mine = await svc.http().get('/api/follows/followers?limit=1').set(burak.auth);
      expect(mine.status).toBe(200);
      expect(mine.body.meta).toEqual({ total: 2, page: 1, limit: 1, totalPages: 2 });
      expect(mine.body.data).toEqual([
        { id: cem.id, username: cem.username, display_name: 'Cem', profile_image_url: null, bio: '', since: expect.any(String) },
      ]);
      const page2 = await svc.http().get(`/api/follows/followers/${burak.id}?page=2&limit=1`).set(cem.auth);
      expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual([ali.id]);

      const following = await svc.http().get('/api/follows/following').set(ali.auth);
      expect(following.body.data.map((r: { id: string }) => r.id)).toEqual([burak.id]);
      const followingOf = await svc.http().get(`/api/follows/following/${ali.id}`).set(cem.auth);
      expect(followingOf.body.meta.total).toBe(1);
    });

    it('unfollows: counters fall back, follow.removed emitted, a second unfollow is 404', async () => {
      const res = await unfollow(ali, burak);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Unfollowed successfully', data: { status: 'none' } });
      expect((await counts(burak)).followers).toBe(1);
      expect((await counts(ali)).following).toBe(0);
      await svc.settle();
      expect(svc.emitted('follow.removed')).toContainEqual({ followerId: ali.id, followeeId: burak.id, wasPending: false });

      const again = await unfollow(ali, burak);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('You are not following this user');
      expect((await counts(ali)).following).toBe(0);
    });

    it('lets the owner remove a follower without blocking', async () => {
      const dilek = await registerMember(svc, 'Dilek');
      await follow(dilek, burak);
      const before = (await counts(burak)).followers;
      const res = await svc.http().delete(`/api/follows/followers/${dilek.id}`).set(burak.auth);
      expect(res.body).toEqual({ success: true, message: 'Follower removed', data: { status: 'none' } });
      expect((await counts(burak)).followers).toBe(before - 1);
      expect((await status(dilek, burak)).body.data.isBlockedBy).toBe(false);
      const again = await svc.http().delete(`/api/follows/followers/${dilek.id}`).set(burak.auth);
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('This user does not follow you');
    });
  });

  describe.each(['private', 'friends'] as const)('a %s account', (privacy) => {
    let asker: Member;
    let owner: Member;

    beforeAll(async () => {
      asker = await registerMember(svc, 'Asker');
      owner = await registerMember(svc, 'Owner', privacy);
    });

    it("takes a request: 'Follow request sent', data.status pending, no counter moves, follow.requested", async () => {
      const res = await follow(asker, owner);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Follow request sent', data: { status: 'pending' } });
      expect(await counts(owner)).toEqual({ followers: 0, following: 0 });
      expect((await status(asker, owner)).body.data).toMatchObject({ isFollowing: false, isPending: true });
      await svc.settle();
      expect(svc.emitted('follow.requested')).toContainEqual({ followerId: asker.id, followeeId: owner.id });
    });

    it('answers a repeated request the same way without a second event', async () => {
      const before = svc.emitted('follow.requested').length;
      const res = await follow(asker, owner);
      expect(res.body).toEqual({ success: true, message: 'Follow request sent', data: { status: 'pending' } });
      await svc.settle();
      expect(svc.emitted('follow.requested')).toHaveLength(before);
    });

    it('hides its followers and following from non-followers but keeps the profile header', async () => {
      const list = await svc.http().get(`/api/follows/followers/${owner.id}`).set(asker.auth);
      expect(list.status).toBe(403);
      expect(list.body).toEqual({ success: false, message: 'This account is private', code: 'FOLLOW_LIST_PRIVATE' });
      expect((await svc.http().get(`/api/follows/following/${owner.id}`).set(asker.auth)).status).toBe(403);
      const header = await svc.http().get(`/api/users/profile/${owner.username}`).set(asker.auth);
      expect(header.status).toBe(200);
      expect(header.body.data).toMatchObject({ privacy_profile: privacy, can_view_content: false });
    });

    it('lists incoming and outgoing requests', async () => {
      const incoming = await svc.http().get('/api/follows/requests').set(owner.auth);
      expect(incoming.body.data).toEqual([
        { id: asker.id, username: asker.username, display_name: 'Asker', profile_image_url: null, bio: '', since: expect.any(String) },
      ]);
      expect(incoming.body.meta.total).toBe(1);
      const outgoing = await svc.http().get('/api/follows/requests?direction=outgoing').set(asker.auth);
      expect(outgoing.body.data.map((r: { id: string }) => r.id)).toEqual([owner.id]);
      const bad = await svc.http().get('/api/follows/requests?direction=sideways').set(asker.auth);
      expect(bad.status).toBe(400);
    });

    it('accepts a request: the asker now follows, counters move, follow.accepted emitted, lists open up', async () => {
      const res = await svc.http().post(`/api/follows/requests/${asker.id}/accept`).set(owner.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Follow request accepted', data: { status: 'following' } });
      expect((await status(asker, owner)).body.data).toMatchObject({ isFollowing: true, isPending: false });
      expect(await counts(owner)).toEqual({ followers: 1, following: 0 });
      expect((await counts(asker)).following).toBe(1);
      await svc.settle();
      expect(svc.emitted('follow.accepted')).toContainEqual({ followerId: asker.id, followeeId: owner.id });
      expect((await svc.http().get(`/api/follows/followers/${owner.id}`).set(asker.auth)).status).toBe(200);
      const header = await svc.http().get(`/api/users/profile/${owner.username}`).set(asker.auth);
      expect(header.body.data.can_view_content).toBe(true);

      const twice = await svc.http().post(`/api/follows/requests/${asker.id}/accept`).set(owner.auth);
      expect(twice.status).toBe(404);
      expect(twice.body.message).toBe('Follow request not found');
      expect((await counts(owner)).followers).toBe(1);
    });

    it('rejects a request and cancels one', async () => {
      const other = await registerMember(svc, 'Other');
      await follow(other, owner);
      const rejected = await svc.http().post(`/api/follows/requests/${other.id}/reject`).set(owner.auth);
      expect(rejected.body).toEqual({ success: true, message: 'Follow request rejected', data: { status: 'none' } });
      expect((await status(other, owner)).body.data.isPending).toBe(false);
      await svc.settle();
      expect(svc.emitted('follow.removed')).toContainEqual({ followerId: other.id, followeeId: owner.id, wasPending: true });

      await follow(other, owner);
      const cancelled = await unfollow(other, owner);
      expect(cancelled.body).toEqual({ success: true, message: 'Follow request cancelled', data: { status: 'none' } });
      expect((await svc.http().post(`/api/follows/requests/${other.id}/reject`).set(owner.auth)).status).toBe(404);
      expect((await counts(owner)).followers).toBe(1);
    });
  });

  it('accepts every pending request when an account switches to public', async () => {
    const owner = await registerMember(svc, 'Switcher', 'private');
    const fans = await Promise.all(['Fan One', 'Fan Two'].map((n) => registerMember(svc, n)));
    for (const fan of fans) await follow(fan, owner);
    expect((await counts(owner)).followers).toBe(0);
    const res = await svc.http().put('/api/users/settings').set(owner.auth).send({ privacy_profile: 'public' });
    expect(res.status).toBe(200);
    expect((await counts(owner)).followers).toBe(2);
    for (const fan of fans) expect((await status(fan, owner)).body.data).toMatchObject({ isFollowing: true, isPending: false });
    expect((await svc.http().get('/api/follows/requests').set(owner.auth)).body.data).toEqual([]);
  });

  describe('refusals', () => {
    let eda: Member;

    beforeAll(async () => {
      eda = await registerMember(svc, 'Eda');
    });

    it('refuses following oneself with 400', async () => {
      const res = await follow(eda, eda);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'You cannot follow yourself', code: 'CANNOT_FOLLOW_SELF' });
    });

    it('answers unknown users with 404', async () => {
      expect((await follow(eda, 'no-such-user')).status).toBe(404);
      expect((await svc.http().get('/api/follows/status/no-such-user').set(eda.auth)).status).toBe(404);
      expect((await svc.http().get('/api/follows/followers/no-such-user').set(eda.auth)).status).toBe(404);
      expect((await svc.http().get('/api/follows/following/no-such-user').set(eda.auth)).status).toBe(404);
    });

    it('refuses over-long ids and bad paging with 400', async () => {
      expect((await follow(eda, 'x'.repeat(65))).status).toBe(400);
      expect((await svc.http().get('/api/follows/followers?limit=101').set(eda.auth)).status).toBe(400);
      expect((await svc.http().get('/api/follows/followers?page=0').set(eda.auth)).status).toBe(400);
    });

    it('needs a token everywhere', async () => {
      const http = svc.http();
      expect((await http.post(`/api/follows/users/${eda.id}`)).status).toBe(401);
      expect((await svc.http().delete(`/api/follows/users/${eda.id}`)).status).toBe(401);
      expect((await svc.http().get(`/api/follows/status/${eda.id}`)).status).toBe(401);
      expect((await svc.http().get('/api/follows/followers')).status).toBe(401);
      expect((await svc.http().get('/api/follows/requests')).status).toBe(401);
    });
  });
});
