import 'reflect-metadata';
import { FoldedKeysBackfill } from '@app/platform';
import { SQUAD_CATEGORIES } from '@app/contracts';
import { SquadsFixture, TestMember } from '../squads.fixture';
import { squadsCollection, squadSearchKey } from './squad.collection';

describe('squads: create, read, discover, update, delete (HTTP)', () => {
  let fx: SquadsFixture;
  let ayse: TestMember;
  let burak: TestMember;

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    ayse = await fx.member('ayse', 'Ayşe Yılmaz', 'https://img.example/ayse.png');
    burak = await fx.member('burak', 'Burak Demir');
  });

  afterAll(() => fx.close());

  describe('POST /squads', () => {
    it('creates a squad with trimmed fields, makes the creator admin and announces it', async () => {
      const res = await fx
        .http()
        .post('/api/squads')
        .set(ayse.auth)
        .send({ name: '  Coffee Lovers  ', description: '  Beans and brews \n', category: 'Food' });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Squad created successfully');
      expect(res.body.data).toMatchObject({
        name: 'Coffee Lovers',
        description: 'Beans and brews',
        category: 'Food',
        creator_id: ayse.id,
        creator_name: 'Ayşe Yılmaz',
        creator_username: 'ayse',
        creator_avatar: 'https://img.example/ayse.png',
        member_count: 1,
        is_member: true,
        user_role: 'admin',
        join_request_status: null,
      });
      expect(res.body.data.members).toEqual([
        {
          id: ayse.id,
          username: 'ayse',
          display_name: 'Ayşe Yılmaz',
          profile_image_url: 'https://img.example/ayse.png',
          role: 'admin',
          joined_at: expect.any(String),
        },
      ]);
      await fx.svc.settle();
      const squadId = res.body.data.id;
      expect(fx.svc.emitted('squad.created')).toContainEqual({
        squadId,
        name: 'Coffee Lovers',
        category: 'Food',
        creatorId: ayse.id,
      });
      expect(fx.svc.emitted('squad.member_joined')).toContainEqual(
        expect.objectContaining({ squadId, squadName: 'Coffee Lovers', userId: ayse.id, role: 'admin' }),
      );
    });

    it('defaults the category to General and the description to empty', async () => {
      const res = await fx.http().post('/api/squads').set(ayse.auth).send({ name: 'Plain' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ category: 'General', description: '' });
    });

    it.each([[{}], [{ name: '' }], [{ name: '    ' }], [{ name: 42 }], [{ name: null }]])(
      'refuses %j with "Squad name is required"',
      async (body) => {
        const res = await fx.http().post('/api/squads').set(ayse.auth).send(body);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toBe('Squad name is required');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('name');
      },
    );

    it.each([
      [{ name: 'X', category: 'Cooking' }, 'category'],
      [{ name: 'X', category: 'general' }, 'category'],
      [{ name: 'X'.repeat(81) }, 'name'],
      [{ name: 'X', description: 'd'.repeat(1001) }, 'description'],
      [{ name: 'X', creator_id: 'someone' }, 'creator_id'],
      [{ name: { $ne: null } }, 'name'],
    ])('refuses %j with a 400 naming %s', async (body, field) => {
      const res = await fx.http().post('/api/squads').set(ayse.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('accepts each of the 12 categories', async () => {
      expect(SQUAD_CATEGORIES).toHaveLength(12);
      for (const category of SQUAD_CATEGORIES) {
        const res = await fx.http().post('/api/squads').set(burak.auth).send({ name: `Cat ${category}`, category });
        expect(res.status).toBe(201);
        expect(res.body.data.category).toBe(category);
      }
    });

    it('needs a token', async () => {
      const res = await fx.http().post('/api/squads').send({ name: 'Anon' });
      expect(res.status).toBe(401);
    });
  });

  describe('GET /squads/{id}', () => {
    it('shows the squad to a non-member with viewer fields and the member list', async () => {
      const squadId = await fx.createSquad(ayse, { name: 'Readers', category: 'Books' });
      const res = await fx.http().get(`/api/squads/${squadId}`).set(burak.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: squadId,
        name: 'Readers',
        is_member: false,
        user_role: null,
        join_request_status: null,
        member_count: 1,
        creator_username: 'ayse',
      });
      expect(res.body.data.members).toHaveLength(1);
      expect(res.body.data.sample_members).toEqual([
        { id: ayse.id, username: 'ayse', display_name: 'Ayşe Yılmaz', profile_image_url: 'https://img.example/ayse.png' },
      ]);
    });

    it('answers an unknown id with 404 "Squad not found"', async () => {
      const res = await fx.http().get('/api/squads/does-not-exist').set(burak.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Squad not found', code: 'SQUAD_NOT_FOUND' });
    });

    it('refuses an over-long id with 400', async () => {
      const res = await fx.http().get(`/api/squads/${'x'.repeat(65)}`).set(burak.auth);
      expect(res.status).toBe(400);
    });

    it('shows the latest card of a renamed member', async () => {
      const cem = await fx.member('cem', 'Cem');
      const squadId = await fx.createSquad(cem, { name: 'Renamers' });
      await fx.svc.publish('user.updated', {
        userId: cem.id,
        username: 'cem_k',
        display_name: 'Cem Kaya',
        bio: '',
        profile_image_url: 'https://img.example/cem.png',
      });
      const res = await fx.http().get(`/api/squads/${squadId}`).set(cem.auth);
      expect(res.body.data).toMatchObject({ creator_name: 'Cem Kaya', creator_username: 'cem_k' });
      expect(res.body.data.members[0]).toMatchObject({ username: 'cem_k', profile_image_url: 'https://img.example/cem.png' });
    });

    it('uses the token name for a member whose user.registered has not arrived yet', async () => {
      const stranger = { id: 'early-bird', username: 'early' };
      const res = await fx.http().post('/api/squads').set(fx.svc.authHeader(stranger)).send({ name: 'Early' });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ creator_username: 'early', creator_name: 'early' });
    });
  });

  describe('GET /squads/discover', () => {
    let fresh: SquadsFixture;
    let admin: TestMember;
    let viewer: TestMember;

    beforeAll(async () => {
      fresh = await SquadsFixture.start();
      admin = await fresh.member('deniz', 'Deniz');
      viewer = await fresh.member('elif', 'Elif');
      for (let i = 1; i <= 11; i++) await fresh.createSquad(admin, { name: `Gamers ${i}`, category: 'Gaming' });
      await fresh.createSquad(admin, { name: 'Runners (5k+)', description: 'Morning runs', category: 'Fitness' });
    });

    afterAll(() => fresh.close());

    it('pages by 10 by default, newest first, with meta and pagination.totalPages', async () => {
      const res = await fresh.http().get('/api/squads/discover').set(viewer.auth);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.data[0].name).toBe('Runners (5k+)');
      expect(res.body.meta).toEqual({ total: 12, page: 1, limit: 10, totalPages: 2 });
      expect(res.body.pagination).toEqual({ totalPages: 2, page: 1, limit: 10, total: 12 });

      const page2 = await fresh.http().get('/api/squads/discover?page=2&limit=10').set(viewer.auth);
      expect(page2.body.data).toHaveLength(2);
      expect(page2.body.data.map((s: { name: string }) => s.name)).toEqual(['Gamers 2', 'Gamers 1']);
    });

    it('filters by category and by a case-insensitive search on name or description', async () => {
      const byCategory = await fresh.http().get('/api/squads/discover?category=Fitness').set(viewer.auth);
      expect(byCategory.body.data.map((s: { name: string }) => s.name)).toEqual(['Runners (5k+)']);

      const byName = await fresh.http().get('/api/squads/discover').query({ search: 'gAmErS 1' }).set(viewer.auth);
      expect(byName.body.data.map((s: { name: string }) => s.name).sort()).toEqual(['Gamers 1', 'Gamers 10', 'Gamers 11']);

      const byDescription = await fresh.http().get('/api/squads/discover?search=morning').set(viewer.auth);
      expect(byDescription.body.pagination.total).toBe(1);

      // Regex characters are taken literally.
      const literal = await fresh.http().get('/api/squads/discover').query({ search: '(5k+)' }).set(viewer.auth);
      expect(literal.body.data.map((s: { name: string }) => s.name)).toEqual(['Runners (5k+)']);
      const dot = await fresh.http().get('/api/squads/discover').query({ search: '.*' }).set(viewer.auth);
      expect(dot.body.data).toEqual([]);
    });

    it('treats an empty search and category as absent', async () => {
      const res = await fresh.http().get('/api/squads/discover?search=&category=&_t=123').set(viewer.auth);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(12);
    });

    it.each(['category=Cooking', 'limit=0', 'limit=101', 'page=0', 'sort=name'])('refuses ?%s with 400', async (qs) => {
      const res = await fresh.http().get(`/api/squads/discover?${qs}`).set(viewer.auth);
      expect(res.status).toBe(400);
    });

    it('carries the first 3 members as sample_members and the viewer fields on each card', async () => {
      const squadId = await fresh.createSquad(admin, { name: 'Crowded', category: 'Music' });
      const others = [];
      for (const name of ['m1', 'm2', 'm3']) {
        const m = await fresh.member(name);
        others.push(m);
        await fresh.join(admin, m, squadId);
      }
      const pendingSquad = await fresh.createSquad(admin, { name: 'Pending Club', category: 'Music' });
      await fresh.requestJoin(viewer, pendingSquad);
      const rejectedSquad = await fresh.createSquad(admin, { name: 'Rejected Club', category: 'Music' });
      const rejected = await fresh.requestJoin(viewer, rejectedSquad);
      await fresh.decide(admin, rejectedSquad, rejected, 'reject');

      const res = await fresh.http().get('/api/squads/discover?category=Music').set(viewer.auth);
      const byName = new Map(res.body.data.map((s: { name: string }) => [s.name, s]));
      expect(byName.get('Crowded')).toMatchObject({
        member_count: 4,
        sample_members: [
          { id: admin.id, username: 'deniz', display_name: 'Deniz', profile_image_url: null },
          expect.objectContaining({ username: 'm1' }),
          expect.objectContaining({ username: 'm2' }),
        ],
        is_member: false,
        join_request_status: null,
        user_role: null,
      });
      expect(byName.get('Crowded')).not.toHaveProperty('members');
      expect(byName.get('Pending Club')).toMatchObject({ join_request_status: 'pending', is_member: false });
      expect(byName.get('Rejected Club')).toMatchObject({ join_request_status: 'rejected', is_member: false });

      const asMember = await fresh.http().get('/api/squads/discover?category=Music').set(others[2].auth);
      const crowded = asMember.body.data.find((s: { name: string }) => s.name === 'Crowded');
      expect(crowded).toMatchObject({ is_member: true, user_role: 'member', join_request_status: null });
    });
  });

  describe('GET /squads/my-squads and /squads/stats', () => {
    it('lists the viewer’s squads, newest membership first, and counts roles', async () => {
      const fresh = await SquadsFixture.start();
      try {
        const a = await fresh.member('fatma');
        const b = await fresh.member('gokhan');
        const s1 = await fresh.createSquad(a, { name: 'One' });
        const s2 = await fresh.createSquad(a, { name: 'Two' });
        const s3 = await fresh.createSquad(a, { name: 'Three' });
        await fresh.createSquad(a, { name: 'Not for b' });
        await fresh.join(a, b, s1);
        await fresh.join(a, b, s2);
        await fresh.join(a, b, s3);
        expect((await fresh.setRole(a, s2, b.id, 'moderator')).status).toBe(200);
        expect((await fresh.setRole(a, s3, b.id, 'admin')).status).toBe(200);

        const mine = await fresh.http().get('/api/squads/my-squads').set(b.auth);
        expect(mine.status).toBe(200);
        expect(mine.body.data.map((s: { name: string; user_role: string }) => [s.name, s.user_role])).toEqual([
          ['Three', 'admin'],
          ['Two', 'moderator'],
          ['One', 'member'],
        ]);
        expect(mine.body.data.every((s: { is_member: boolean }) => s.is_member)).toBe(true);
        expect(mine.body.meta.total).toBe(3);

        const stats = await fresh.http().get('/api/squads/stats').set(b.auth);
        expect(stats.status).toBe(200);
        expect(stats.body.data).toEqual({ total_squads: 3, admin_squads: 1, moderator_squads: 1 });

        const statsA = await fresh.http().get('/api/squads/stats').set(a.auth);
        expect(statsA.body.data).toEqual({ total_squads: 4, admin_squads: 4, moderator_squads: 0 });

        const newcomer = await fresh.member('hakan');
        expect((await fresh.http().get('/api/squads/my-squads').set(newcomer.auth)).body.data).toEqual([]);
        expect((await fresh.http().get('/api/squads/stats').set(newcomer.auth)).body.data).toEqual({
          total_squads: 0,
          admin_squads: 0,
          moderator_squads: 0,
        });
      } finally {
        await fresh.close();
      }
    });
  });

  describe('PUT /squads/{id}', () => {
    it('lets an admin change name, description and category (trimmed)', async () => {
      const squadId = await fx.createSquad(ayse, { name: 'Old name' });
      const res = await fx
        .http()
        .put(`/api/squads/${squadId}`)
        .set(ayse.auth)
        .send({ name: '  New name ', description: ' About ', category: 'Art' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: 'New name', description: 'About', category: 'Art' });
      const again = await fx.http().get(`/api/squads/${squadId}`).set(ayse.auth);
      expect(again.body.data.name).toBe('New name');
    });

    it('announces a new name or category with squad.updated, and nothing for other edits', async () => {
      const squadId = await fx.createSquad(ayse, { name: 'Before', category: 'Technology' });
      const announced = () => fx.svc.emitted('squad.updated').filter((e) => e.squadId === squadId);

      const renamed = await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ name: ' After ' });
      expect(renamed.status).toBe(200);
      await fx.svc.settle();
      expect(announced()).toEqual([{ squadId, name: 'After', category: 'Technology', updated_at: expect.any(String) }]);
      expect(Date.parse(announced()[0].updated_at)).not.toBeNaN();

      // The same name again, or only the description: the copies elsewhere have nothing to follow.
      expect((await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ name: 'After' })).status).toBe(200);
      expect((await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ description: 'New words' })).status).toBe(200);
      await fx.svc.settle();
      expect(announced()).toHaveLength(1);

      await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ category: 'Art' });
      await fx.svc.settle();
      expect(announced().map((e) => [e.name, e.category])).toEqual([
        ['After', 'Technology'],
        ['After', 'Art'],
      ]);
      expect(announced()[1].updated_at >= announced()[0].updated_at).toBe(true);

      // A refused edit announces nothing.
      await fx.http().put(`/api/squads/${squadId}`).set(burak.auth).send({ name: 'Hijacked' });
      await fx.svc.settle();
      expect(announced()).toHaveLength(2);
    });

    it('refuses a blank name, a bad category, moderators, members and strangers', async () => {
      const squadId = await fx.createSquad(ayse, { name: 'Guarded' });
      const blank = await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ name: '  ' });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('Squad name is required');
      expect((await fx.http().put(`/api/squads/${squadId}`).set(ayse.auth).send({ category: 'Nope' })).status).toBe(400);

      const stranger = await fx.http().put(`/api/squads/${squadId}`).set(burak.auth).send({ name: 'Mine now' });
      expect(stranger.status).toBe(403);
      expect(stranger.body.message).toBe('Only squad admins can update the squad');

      await fx.join(ayse, burak, squadId);
      await fx.setRole(ayse, squadId, burak.id, 'moderator');
      expect((await fx.http().put(`/api/squads/${squadId}`).set(burak.auth).send({ name: 'Mine now' })).status).toBe(403);
      expect((await fx.http().put('/api/squads/missing').set(ayse.auth).send({ name: 'x' })).status).toBe(404);
    });
  });

  describe('DELETE /squads/{id}', () => {
    it('refuses non-admins with 403 and lets the admin delete, announcing squad.deleted', async () => {
      const squadId = await fx.createSquad(ayse, { name: 'Short lived' });
      await fx.join(ayse, burak, squadId);

      const refused = await fx.http().delete(`/api/squads/${squadId}`).set(burak.auth);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Only squad admins can delete the squad');

      const res = await fx.http().delete(`/api/squads/${squadId}`).set(ayse.auth);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Squad deleted successfully');
      await fx.svc.settle();
      expect(fx.svc.emitted('squad.deleted')).toContainEqual({
        squadId,
        name: 'Short lived',
        memberIds: [ayse.id, burak.id],
      });

      expect((await fx.http().get(`/api/squads/${squadId}`).set(ayse.auth)).status).toBe(404);
      const mine = await fx.http().get('/api/squads/my-squads?limit=100').set(burak.auth);
      expect(mine.body.data.map((s: { id: string }) => s.id)).not.toContain(squadId);
      expect((await fx.http().delete(`/api/squads/${squadId}`).set(ayse.auth)).status).toBe(404);
    });
  });
});

describe('squad discover folds Turkish letters and accents (issue 21 §5)', () => {
  let fx: SquadsFixture;
  let ayse: TestMember;

  const names = async (search: string) =>
    (await fx.http().get('/api/squads/discover').query({ search }).set(ayse.auth)).body.data.map((s: { name: string }) => s.name).sort();
  const create = async (name: string, description = '') => {
    const res = await fx.http().post('/api/squads').set(ayse.auth).send({ name, description, category: 'General' });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    fx = await SquadsFixture.start();
    ayse = await fx.member('ayse', 'Ayşe');
    await create('Şule ile Koşu');
    await create('Işık Fotoğrafçıları');
    await create('Gezginler', 'İstanbul sokakları');
  });

  afterAll(() => fx.close());

  it("finds 'Şule' by 'sule', 'Işık' by 'ISIK' and 'İstanbul' (in a description) by 'istanbul', and by first letters", async () => {
    expect(await names('sule')).toEqual(['Şule ile Koşu']);
    expect(await names('ISIK')).toEqual(['Işık Fotoğrafçıları']);
    expect(await names('istanbul')).toEqual(['Gezginler']);
    expect(await names('fotog')).toEqual(['Işık Fotoğrafçıları']);
  });

  it('follows a rename and keeps the folded copy out of replies and the export', async () => {
    const id = await create('Çay Saati');
    const renamed = await fx.http().put(`/api/squads/${id}`).set(ayse.auth).send({ name: 'Öğle Çayı' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).not.toHaveProperty('search_key');
    expect(await names('ogle cayi')).toEqual(['Öğle Çayı']);
    expect(await names('saati')).toEqual([]);
    const listed = (await fx.http().get('/api/squads/discover?search=ogle').set(ayse.auth)).body.data[0];
    expect(listed).not.toHaveProperty('search_key');
    const exported = await fx.http().get('/api/squads/me/export').set(ayse.auth);
    expect(exported.body.data.squads_created).toHaveLength(4);
    for (const row of exported.body.data.squads_created) expect(row).not.toHaveProperty('search_key');
  });

  it('fills the folded copy of squads stored before it at boot, once',  async () => {
    const squads = fx.svc.store.collection(squadsCollection);
    await squads.updateMany({ name: 'Gezginler' }, { $unset: { search_key: '' } });
    expect(await names('istanbul')).toEqual([]);
    await fx.svc.app.get(FoldedKeysBackfill).onApplicationBootstrap();
    expect(await names('istanbul')).toEqual(['Gezginler']);
    expect(await squadSearchKey.fill(squads)).toBe(0);
  });
});
