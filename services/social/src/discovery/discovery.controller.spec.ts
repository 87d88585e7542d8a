import { TestService } from '@app/testing';
import { FoldedKeysBackfill } from '@app/platform';
import { Member, registerMember, startSocial } from '../social.fixture';
import { profilesCollection, profileSearchKey } from '../profiles/profile.collection';

describe('search and People to Follow (HTTP)', () => {
  let svc: TestService;
  let me: Member;
  let ayse: Member;
  let aylin: Member;
  let mehmet: Member;
  let hidden: Member;
  let secret: Member;

  const follow = (by: Member, target: Member) => svc.http().post(`/api/follows/users/${target.id}`).set(by.auth);
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

  beforeAll(async () => {
    svc = await startSocial();
    me = await registerMember(svc, 'Me Myself');
    ayse = await registerMember(svc, 'Ayşe Yılmaz');
    aylin = await registerMember(svc, 'Aylin Kaya');
    mehmet = await registerMember(svc, 'Mehmet Demir');
    hidden = await registerMember(svc, 'Aynur Blocker');
    secret = await registerMember(svc, 'Ayla Secret', 'private');
    await svc.http().post(`/api/users/${me.id}/block`).set(hidden.auth);
  });

  afterAll(() => svc.close());

  describe('GET /users/search', () => {
    it('matches display name or username case-insensitively, leaving out oneself and blocked users', async () => {
      const res = await svc.http().get('/api/users/search?search=AY').set(me.auth);
      expect(res.status).toBe(200);
      expect(ids(res).sort()).toEqual([ayse.id, aylin.id, secret.id].sort());
      expect(res.body.meta).toMatchObject({ total: 3, page: 1 });
      const byUsername = await svc.http().get(`/api/users/search?search=${mehmet.username.toUpperCase()}`).set(me.auth);
      expect(ids(byUsername)).toEqual([mehmet.id]);
    });

    it('gives each row its card, bio, followers_count and follow_status', async () => {
      await follow(me, aylin);
      await follow(me, secret);
      const res = await svc.http().get('/api/users/search?search=aylin').set(me.auth);
      expect(res.body.data).toEqual([
        {
          id: aylin.id,
          username: aylin.username,
          display_name: 'Aylin Kaya',
          profile_image_url: null,
          bio: '',
          followers_count: 1,
          follow_status: { isFollowing: true, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false },
        },
      ]);
      const pending = await svc.http().get('/api/users/search?search=secret').set(me.auth);
      expect(pending.body.data[0].follow_status.isPending).toBe(true);
    });

    it('treats the text literally, lists everyone but oneself when empty, and pages', async () => {
      expect((await svc.http().get('/api/users/search?search=.*').set(me.auth)).body.data).toEqual([]);
      const all = await svc.http().get('/api/users/search?limit=2').set(me.auth);
      expect(all.body.meta).toEqual({ total: 4, page: 1, limit: 2, totalPages: 2 });
      expect(ids(all)).not.toContain(me.id);
      expect(ids(all)).not.toContain(hidden.id);
    });

    it('hides the blocked member from the blocker as well', async () => {
      const res = await svc.http().get('/api/users/search?search=Me Myself').set(hidden.auth);
      expect(res.body.data).toEqual([]);
    });

    it('refuses over-long text, unknown params and no token', async () => {
      expect((await svc.http().get(`/api/users/search?search=${'a'.repeat(101)}`).set(me.auth)).status).toBe(400);
      expect((await svc.http().get('/api/users/search?q=ay').set(me.auth)).status).toBe(400);
      expect((await svc.http().get('/api/users/search?search=ay')).status).toBe(401);
    });
  });

  describe('GET /users/suggestions', () => {
    it('leaves out oneself, followed, requested, blocked and private people; ranks by friends of friends, then followers', async () => {
      const fresh = await registerMember(svc, 'Fresh');
      const popular = await registerMember(svc, 'Popular');
      await follow(ayse, popular);
      await follow(mehmet, popular);
      // Aylin (whom `me` follows) follows Fresh: Fresh outranks the more followed Popular.
      await follow(aylin, fresh);

      const res = await svc.http().get('/api/users/suggestions?limit=4').set(me.auth);
      expect(res.status).toBe(200);
      const got = ids(res);
      expect(got).toHaveLength(4);
      expect(got[0]).toBe(fresh.id);
      expect(got[1]).toBe(popular.id);
      expect(got).not.toEqual(expect.arrayContaining([me.id]));
      for (const excluded of [me, aylin, secret, hidden]) expect(got).not.toContain(excluded.id);
      expect(res.body.data[0]).toMatchObject({ mutual_count: 1, follow_status: { isFollowing: false } });
      expect(res.body.data[1]).toMatchObject({ mutual_count: 0, followers_count: 2 });
    });

    it('defaults to 4 and caps the limit at 20', async () => {
      const res = await svc.http().get('/api/users/suggestions').set(me.auth);
      expect(res.body.data.length).toBeLessThanOrEqual(4);
      expect((await svc.http().get('/api/users/suggestions?limit=21').set(me.auth)).status).toBe(400);
      expect((await svc.http().get('/api/users/suggestions?limit=abc').set(me.auth)).status).toBe(400);
      expect((await svc.http().get('/api/users/suggestions')).status).toBe(401);
    });
  });
});

describe('people search folds Turkish letters and accents (issue 21 §5)', () => {
  let svc: TestService;
  let me: Member;
  let sule: Member;
  let isik: Member;
  let gezgin: Member;

  const names = async (search: string) =>
    (await svc.http().get('/api/users/search').query({ search }).set(me.auth)).body.data.map((r: { display_name: string }) => r.display_name);

  beforeAll(async () => {
    svc = await startSocial();
    me = await registerMember(svc, 'Me Myself');
    sule = await registerMember(svc, 'Şule Ak');
    isik = await registerMember(svc, 'Işık Tan');
    gezgin = await registerMember(svc, 'İstanbul Gezgini');
  });

  afterAll(() => svc.close());

  it("finds 'Şule' by 'sule', 'Işık' by 'ISIK' and 'İstanbul' by 'istanbul', and by first letters", async () => {
    expect(await names('sule')).toEqual(['Şule Ak']);
    expect(await names('ISIK')).toEqual(['Işık Tan']);
    expect(await names('istanbul')).toEqual(['İstanbul Gezgini']);
    expect(await names('şu')).toEqual(['Şule Ak']);
  });

  it('follows a new display name and keeps the folded copy out of replies and the export', async () => {
    const renamed = await svc.http().put('/api/users/profile').set(sule.auth).send({ display_name: 'Çiğdem Öz' });
    expect(renamed.status).toBe(200);
    expect(await names('cigdem oz')).toEqual(['Çiğdem Öz']);
    expect(await names('sule ak')).toEqual([]);
    const row = (await svc.http().get('/api/users/search?search=isik').set(me.auth)).body.data[0];
    expect(row.id).toBe(isik.id);
    expect(row).not.toHaveProperty('search_key');
    const exported = await svc.http().get('/api/follows/me/export').set(gezgin.auth);
    expect(exported.body.data.profile[0].display_name).toBe('İstanbul Gezgini');
    expect(exported.body.data.profile[0]).not.toHaveProperty('search_key');
  });

  it('fills the folded copy of profiles stored before it at boot, once',  async () => {
    const profiles = svc.store.collection(profilesCollection);
    await profiles.updateOne({ _id: isik.id }, { $unset: { search_key: '' } });
    expect(await names('isik')).toEqual([]);
    await svc.app.get(FoldedKeysBackfill).onApplicationBootstrap();
    expect(await names('isik')).toEqual(['Işık Tan']);
    expect(await profileSearchKey.fill(profiles)).toBe(0);
  });
});
