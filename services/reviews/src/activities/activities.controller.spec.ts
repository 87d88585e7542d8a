import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('activities (HTTP + events)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    await svc.publish('follow.created', { followerId: zeynep.id, followeeId: ayse.id });
  });

  afterAll(() => svc.close());

  const types = (res: { body: { data: { type: string }[] } }) => res.body.data.map((a) => a.type);

  it('records squad joins in the spec Activity shape, once per event', async () => {
    const joined = { squadId: 'sq1', squadName: 'Coffee Nerds', userId: ayse.id, role: 'member' as const, joined_at: '2024-06-01T10:00:00.000Z' };
    await svc.publish('squad.member_joined', joined, 'sq1');
    const res = await svc.http().get('/api/activities/user').set(ayse.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        type: 'squad_join',
        user: { id: ayse.id, username: 'ayse', display_name: 'Ayse', profile_image_url: null },
        data: { squad: { id: 'sq1', name: 'Coffee Nerds' } },
        created_at: '2024-06-01T10:00:00.000Z',
      },
    ]);
    expect(res.body.meta).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
  });

  it('renames the squad in its join activities on squad.updated; an older rename arriving late is ignored', async () => {
    const squadOf = async () => (await svc.http().get('/api/activities/user').set(ayse.auth)).body.data[0].data;
    const updated_at = new Date().toISOString();
    await svc.publish('squad.updated', { squadId: 'sq1', name: 'Espresso Nerds', category: 'Food', updated_at }, 'sq1');
    expect(await squadOf()).toEqual({ squad: { id: 'sq1', name: 'Espresso Nerds' } });
    const earlier = new Date(Date.parse(updated_at) - 60_000).toISOString();
    await svc.publish('squad.updated', { squadId: 'sq1', name: 'Coffee Nerds', category: 'Food', updated_at: earlier }, 'sq1');
    expect(await squadOf()).toEqual({ squad: { id: 'sq1', name: 'Espresso Nerds' } });
    // Another squad's rename touches nothing here.
    await svc.publish('squad.updated', { squadId: 'sq9', name: 'Other', category: 'Food', updated_at }, 'sq9');
    expect(await squadOf()).toEqual({ squad: { id: 'sq1', name: 'Espresso Nerds' } });
  });

  it('records review, like and comment activities and shows followed members in the feed', async () => {
    const product = await makeProduct(svc, mehmet, { name: 'French Press', category: 'Kitchen' });
    const review = await makeReview(svc, ayse, { product_id: product.id, rating: 4, title: 'French Press' });
    await svc.http().post(`/api/likes/reviews/${review.id}`).set(zeynep.auth);
    await svc.http().post(`/api/reviews/${review.id}/comments`).set(mehmet.auth).send({ content: 'Nice' });
    await svc.settle();

    const feed = await svc.http().get('/api/activities/feed').set(zeynep.auth);
    expect(types(feed)).toEqual(['review_liked', 'review_created', 'squad_join']);
    expect(feed.body.data[1].data).toEqual({
      review: { id: review.id, title: 'French Press', rating: 4 },
      product: { id: product.id, name: 'French Press' },
    });
    const mehmets = await svc.http().get(`/api/activities/user?userId=${mehmet.id}`).set(zeynep.auth);
    expect(types(mehmets)).toEqual(['comment_created']);
    const onlyJoins = await svc.http().get('/api/activities/feed?type=squad_join&limit=50').set(zeynep.auth);
    expect(types(onlyJoins)).toEqual(['squad_join']);
  });

  it('forgets an unlike and a deleted review', async () => {
    const review = (await svc.http().get(`/api/reviews?userId=${ayse.id}`).set(ayse.auth)).body.data[0];
    await svc.http().post(`/api/likes/reviews/${review.id}`).set(zeynep.auth);
    await svc.settle();
    expect(types(await svc.http().get('/api/activities/user').set(zeynep.auth))).toEqual([]);
    await svc.http().delete(`/api/reviews/${review.id}`).set(ayse.auth);
    await svc.settle();
    expect(types(await svc.http().get('/api/activities/feed').set(zeynep.auth))).toEqual(['squad_join']);
  });

  it('validates the query', async () => {
    expect((await svc.http().get('/api/activities/feed?type=party').set(zeynep.auth)).status).toBe(400);
    expect((await svc.http().get('/api/activities/feed?limit=500').set(zeynep.auth)).status).toBe(400);
  });
});
