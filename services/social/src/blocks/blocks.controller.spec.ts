import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('blocks (HTTP)', () => {
  let svc: TestService;
  let ali: Member;
  let burak: Member;
  let cem: Member;

  beforeAll(async () => {
    svc = await startSocial();
    ali = await registerMember(svc, 'Ali');
    burak = await registerMember(svc, 'Burak');
    cem = await registerMember(svc, 'Cem');
    await svc.http().post(`/api/follows/users/${burak.id}`).set(ali.auth);
    await svc.http().post(`/api/follows/users/${ali.id}`).set(burak.auth);
    await svc.http().post(`/api/follows/users/${burak.id}`).set(cem.auth);
  });

  afterAll(() => svc.close());

  const status = (by: Member, target: Member) => svc.http().get(`/api/follows/status/${target.id}`).set(by.auth);
  const profile = (by: Member, target: Member) => svc.http().get(`/api/users/profile/${target.username}`).set(by.auth);

  it('blocks: ends follows both ways, moves counters, announces block.created and follow.removed', async () => {
    const res = await svc.http().post(`/api/users/${ali.id}/block`).set(burak.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'User blocked', data: { blocked: true } });
    const [a, b] = await Promise.all([profile(ali, ali), profile(burak, burak)]);
    expect(a.body.data).toMatchObject({ followers_count: 0, following_count: 0 });
    expect(b.body.data).toMatchObject({ followers_count: 1, following_count: 0 });
    await svc.settle();
    expect(svc.emitted('block.created')).toEqual([{ blockerId: burak.id, blockedId: ali.id }]);
    expect(svc.emitted('follow.removed')).toEqual(
      expect.arrayContaining([
        { followerId: ali.id, followeeId: burak.id, wasPending: false },
        { followerId: burak.id, followeeId: ali.id, wasPending: false },
      ]),
    );
  });

  it('shows isBlocked to the blocker and isBlockedBy to the blocked, in status and profile', async () => {
    expect((await status(burak, ali)).body.data).toEqual({
      isFollowing: false,
      isFollowed: false,
      isPending: false,
      isBlocked: true,
      isBlockedBy: false,
    });
    expect((await status(ali, burak)).body.data).toEqual({
      isFollowing: false,
      isFollowed: false,
      isPending: false,
      isBlocked: false,
      isBlockedBy: true,
    });
    const header = await profile(ali, burak);
    expect(header.status).toBe(200);
    expect(header.body.data).toMatchObject({ follow_status: { isBlockedBy: true }, can_view_content: false });
  });

  it('refuses a follow either way with 403', async () => {
    const one = await svc.http().post(`/api/follows/users/${burak.id}`).set(ali.auth);
    expect(one.status).toBe(403);
    expect(one.body).toEqual({ success: false, message: 'You cannot follow this user', code: 'USER_BLOCKED' });
    expect((await svc.http().post(`/api/follows/users/${ali.id}`).set(burak.auth)).status).toBe(403);
  });

  it("hides each from the other's lists and their own", async () => {
    expect((await svc.http().get(`/api/follows/followers/${burak.id}`).set(ali.auth)).status).toBe(403);
    // Cem follows Burak and Ali follows Cem: Ali does not see Burak in Cem's following.
    await svc.http().post(`/api/follows/users/${cem.id}`).set(ali.auth);
    const cemFollowing = await svc.http().get(`/api/follows/following/${cem.id}`).set(ali.auth);
    expect(cemFollowing.body.data.map((r: { id: string }) => r.id)).not.toContain(burak.id);
    expect(cemFollowing.body.meta.total).toBe(0);
    const seenByCem = await svc.http().get(`/api/follows/following/${cem.id}`).set(cem.auth);
    expect(seenByCem.body.data.map((r: { id: string }) => r.id)).toEqual([burak.id]);
  });

  it('lists blocked users; a second block is 409', async () => {
    const list = await svc.http().get('/api/users/blocked').set(burak.auth);
    expect(list.body.data).toEqual([
      { id: ali.id, username: ali.username, display_name: 'Ali', profile_image_url: null, bio: '', since: expect.any(String) },
    ]);
    expect(list.body.meta.total).toBe(1);
    const again = await svc.http().post(`/api/users/${ali.id}/block`).set(burak.auth);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('You have already blocked this user');
  });

  it('ends a pending request too when a private account blocks', async () => {
    const shy = await registerMember(svc, 'Shy', 'private');
    await svc.http().post(`/api/follows/users/${shy.id}`).set(cem.auth);
    await svc.http().post(`/api/users/${cem.id}/block`).set(shy.auth);
    expect((await svc.http().get('/api/follows/requests').set(shy.auth)).body.data).toEqual([]);
  });

  it('unblocks: block.removed, follows stay ended, following is possible again', async () => {
    const res = await svc.http().delete(`/api/users/${ali.id}/block`).set(burak.auth);
    expect(res.body).toEqual({ success: true, message: 'User unblocked', data: { blocked: false } });
    await svc.settle();
    expect(svc.emitted('block.removed')).toEqual([{ blockerId: burak.id, blockedId: ali.id }]);
    expect((await status(ali, burak)).body.data).toMatchObject({ isFollowing: false, isBlockedBy: false });
    expect((await svc.http().post(`/api/follows/users/${burak.id}`).set(ali.auth)).status).toBe(200);
    const twice = await svc.http().delete(`/api/users/${ali.id}/block`).set(burak.auth);
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('You have not blocked this user');
  });

  it('refuses blocking oneself (400), unknown users (404), bad ids (400), no token (401)', async () => {
    const self = await svc.http().post(`/api/users/${ali.id}/block`).set(ali.auth);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot block yourself');
    expect((await svc.http().post('/api/users/nobody/block').set(ali.auth)).status).toBe(404);
    expect((await svc.http().post(`/api/users/${'x'.repeat(65)}/block`).set(ali.auth)).status).toBe(400);
    expect((await svc.http().post(`/api/users/${burak.id}/block`)).status).toBe(401);
    expect((await svc.http().get('/api/users/blocked')).status).toBe(401);
  });
});
