import { newId } from '@app/store';
import { TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';

describe('profiles (HTTP)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;

  beforeAll(async () => {
    svc = await startSocial();
    ayse = await registerMember(svc, 'Ayse');
    mehmet = await registerMember(svc, 'Mehmet');
  });

  afterAll(() => svc.close());

  const profile = (viewer: Member, username: string, query = '') =>
    svc.http().get(`/api/users/profile/${username}${query}`).set(viewer.auth);

  it('creates a profile from user.registered and shows it with counters and follow_status', async () => {
    const res = await profile(mehmet, ayse.username);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual({
      id: ayse.id,
      username: ayse.username,
      display_name: 'Ayse',
      name: 'Ayse',
      bio: '',
      profile_image_url: null,
      created_at: expect.any(String),
      followers_count: 0,
      following_count: 0,
      reviews_count: 0,
      follow_status: { isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false },
      privacy_profile: 'public',
      can_view_content: true,
    });
  });

  it('shows the email only on the viewer\'s own profile', async () => {
    const own = await profile(ayse, ayse.username);
    expect(own.body.data.email).toBe(`${ayse.username}@example.com`);
    const other = await profile(mehmet, ayse.username);
    expect(other.body.data).not.toHaveProperty('email');
  });

  it('ignores a redelivered user.registered', async () => {
    await svc.http().put('/api/users/profile').set(ayse.auth).send({ bio: 'Keeps her bio' });
    await svc.publish('user.registered', {
      userId: ayse.id,
      username: ayse.username,
      email: 'x@example.com',
      display_name: 'Other',
      name: 'Other',
      profile_image_url: null,
      created_at: new Date().toISOString(),
    });
    const res = await profile(ayse, ayse.username);
    expect(res.body.data).toMatchObject({ display_name: 'Ayse', bio: 'Keeps her bio' });
  });

  it('counts the follows a newcomer made before their user.registered arrived (a late event)', async () => {
    const id = newId();
    const username = `early_${id}`;
    const early = { id, username, auth: svc.authHeader({ id, username }) };
    expect((await svc.http().post(`/api/follows/users/${mehmet.id}`).set(early.auth)).status).toBe(200);
    await svc.publish('user.registered', { userId: id, username, email: `${username}@example.com`, display_name: 'Early', name: 'Early', profile_image_url: null, created_at: new Date().toISOString() });
    expect((await profile(early, username)).body.data).toMatchObject({ followers_count: 0, following_count: 1 });
    expect((await profile(early, mehmet.username)).body.data).toMatchObject({ followers_count: 1 });
    expect((await svc.http().delete(`/api/follows/users/${mehmet.id}`).set(early.auth)).status).toBe(200);
    expect((await profile(early, username)).body.data).toMatchObject({ following_count: 0 });
  });

  it('accepts and ignores the spec\'s cache busters, and finds usernames case-insensitively', async () => {
    const res = await profile(mehmet, ayse.username.toUpperCase(), '?_t=1700000000&_r=0.42&_cache=no');
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(ayse.id);
  });

  it('refuses unknown query parameters with 400', async () => {
    const res = await profile(mehmet, ayse.username, '?evil=1');
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('evil');
  });

  it('answers an unknown username with 404, to members and visitors alike', async () => {
    const missing = await profile(mehmet, 'nobody_here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: 'User not found', code: 'USER_NOT_FOUND' });
    expect((await svc.http().get('/api/users/profile/nobody_here')).status).toBe(404);
  });

  it('shows a visitor the real counts of a public profile, no relation, and says a private one is private (issue 43 §3)', async () => {
    const star = await registerMember(svc, 'Star');
    const fan = await registerMember(svc, 'Fan');
    const hermit = await registerMember(svc, 'Hermit', 'private');
    expect((await svc.http().post(`/api/follows/users/${star.id}`).set(fan.auth)).status).toBeLessThan(300);
    for (const reviewId of ['v1', 'v2']) {
      await svc.publish('review.created', { reviewId, authorId: star.id, productId: null, productName: null, rating: null, title: '', excerpt: 'x', created_at: new Date().toISOString() });
    }
    const seen = await svc.http().get(`/api/users/profile/${star.username}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toEqual(
      expect.objectContaining({
        id: star.id,
        reviews_count: 2,
        followers_count: 1,
        can_view_content: true,
        follow_status: { isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false },
      }),
    );
    expect(seen.body.data.email).toBeUndefined();
    const closed = await svc.http().get(`/api/users/profile/${hermit.username}`);
    expect(closed.status).toBe(200);
    expect(closed.body.data).toEqual(expect.objectContaining({ privacy_profile: 'private', can_view_content: false }));
    // a token still makes the viewer a member on the same route, and one that does not stand is refused
    expect((await profile(fan, star.username)).body.data.follow_status.isFollowing).toBe(true);
    expect((await svc.http().get(`/api/users/profile/${star.username}`).set('Authorization', 'Bearer not.a.token')).status).toBe(401);
  });

  it('updates only the named fields and announces user.updated', async () => {
    const res = await svc
      .http()
      .put('/api/users/profile')
      .set(mehmet.auth)
      .send({ display_name: '  Mehmet Kaya ', username: 'Mehmet_K', bio: 'Coffee gear nerd' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Profile updated successfully');
    expect(res.body.data).toMatchObject({
      id: mehmet.id,
      username: 'mehmet_k',
      display_name: 'Mehmet Kaya',
      bio: 'Coffee gear nerd',
      profile_image_url: null,
      email: `${mehmet.username}@example.com`,
    });
    await svc.settle();
    expect(svc.emitted('user.updated')).toContainEqual({
      userId: mehmet.id,
      username: 'mehmet_k',
      display_name: 'Mehmet Kaya',
      bio: 'Coffee gear nerd',
      profile_image_url: null,
    });
    mehmet = { ...mehmet, username: 'mehmet_k' };

    const partial = await svc.http().put('/api/users/profile').set(mehmet.auth).send({ profile_image_url: '/api/media/m_png' });
    expect(partial.body.data).toMatchObject({ display_name: 'Mehmet Kaya', bio: 'Coffee gear nerd', profile_image_url: '/api/media/m_png' });
    const cleared = await svc.http().put('/api/users/profile').set(mehmet.auth).send({ profile_image_url: null });
    expect(cleared.body.data.profile_image_url).toBeNull();
  });

  it('answers a taken username with 409 and keeps one\'s own username without conflict', async () => {
    const taken = await svc.http().put('/api/users/profile').set(ayse.auth).send({ username: 'mehmet_k' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ success: false, message: 'Username is already taken', code: 'USERNAME_TAKEN' });
    const same = await svc.http().put('/api/users/profile').set(mehmet.auth).send({ username: 'mehmet_k' });
    expect(same.status).toBe(200);
  });

  it.each([
    [{ username: 'ab' }, 'username'],
    [{ username: 'x'.repeat(25) }, 'username'],
    [{ username: 'has space' }, 'username'],
    [{ display_name: '   ' }, 'display_name'],
    [{ display_name: 'x'.repeat(81) }, 'display_name'],
    [{ bio: 'x'.repeat(501) }, 'bio'],
    [{ profile_image_url: 'javascript:alert(1)' }, 'profile_image_url'],
    [{ email: 'new@example.com' }, 'email'],
    [{ username: { $ne: null } }, 'username'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const res = await svc.http().put('/api/users/profile').set(ayse.auth).send(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('accepts a bio of exactly 500 characters', async () => {
    const res = await svc.http().put('/api/users/profile').set(ayse.auth).send({ bio: 'x'.repeat(500) });
    expect(res.status).toBe(200);
    expect(res.body.data.bio).toHaveLength(500);
  });
});
