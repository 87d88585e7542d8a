import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

describe('feed (HTTP + follow graph events)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
  });

  afterAll(() => svc.close());

  const feed = (m: Member, query = '') => svc.http().get(`/api/feed${query}`).set(m.auth);
  const contents = async (m: Member, query = '') =>
    (await feed(m, query)).body.data.map((r: { content: string }) => r.content) as string[];
  const follow = (follower: Member, followee: Member) =>
    svc.publish('follow.created', { followerId: follower.id, followeeId: followee.id });

  it('is empty with list meta for a new member', async () => {
    const res = await feed(zeynep);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: [], meta: { total: 0, page: 1, limit: 10, totalPages: 0 } });
  });

  it("shows own reviews and followed members' reviews, newest first, with cards", async () => {
    await follow(zeynep, ayse);
    expect(await contents(zeynep)).toEqual([]);
    const product = await makeProduct(svc, mehmet, { name: 'Air Fryer', category: 'Kitchen', image: '/api/media/af' });
    await makeReview(svc, ayse, { content: 'A1', product_id: product.id, rating: 5 });
    await makeReview(svc, mehmet, { content: 'M1 (not followed)' });
    await makeReview(svc, zeynep, { content: 'Z1 (own)' });
    await makeReview(svc, ayse, { content: 'A2' });
    await svc.settle();
    const res = await feed(zeynep);
    expect(res.body.data.map((r: { content: string }) => r.content)).toEqual(['A2', 'Z1 (own)', 'A1']);
    expect(res.body.data[2]).toMatchObject({
      user: { id: ayse.id, username: 'ayse' },
      product: { id: product.id, name: 'Air Fryer', image_url: '/api/media/af' },
      rating: 5,
    });
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 10, totalPages: 1 });
  });

  it('pages with page and limit', async () => {
    expect(await contents(zeynep, '?page=2&limit=2')).toEqual(['A1']);
    const res = await feed(zeynep, '?page=1&limit=2');
    expect(res.body.meta).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect((await feed(zeynep, '?limit=0')).status).toBe(400);
    expect((await feed(zeynep, '?_t=123')).status).toBe(200);
  });

  it('brings a newly followed member in, with their older reviews', async () => {
    await follow(zeynep, mehmet);
    expect(await contents(zeynep)).toEqual(['A2', 'Z1 (own)', 'M1 (not followed)', 'A1']);
  });

  it('builds a missing timeline from the store on first read', async () => {
    await follow(ayse, mehmet);
    expect(await contents(ayse)).toEqual(['A2', 'M1 (not followed)', 'A1']);
  });

  it('drops a deleted review', async () => {
    const gone = await makeReview(svc, ayse, { content: 'A3 (deleted)' });
    await svc.settle();
    expect((await contents(zeynep))[0]).toBe('A3 (deleted)');
    await svc.http().delete(`/api/reviews/${gone.id}`).set(ayse.auth);
    await svc.settle();
    expect(await contents(zeynep)).not.toContain('A3 (deleted)');
    expect((await feed(zeynep)).body.meta.total).toBe(4);
  });

  it('removes an unfollowed member, and a replayed unfollow changes nothing', async () => {
    const removed = { followerId: zeynep.id, followeeId: mehmet.id, wasPending: false };
    await svc.publish('follow.removed', removed);
    await svc.publish('follow.removed', removed);
    expect(await contents(zeynep)).toEqual(['A2', 'Z1 (own)', 'A1']);
    await makeReview(svc, mehmet, { content: 'M2 (after unfollow)' });
    await svc.settle();
    expect(await contents(zeynep)).not.toContain('M2 (after unfollow)');
  });

  it('counts a pending follow only once accepted', async () => {
    await svc.publish('follow.requested', { followerId: mehmet.id, followeeId: zeynep.id });
    expect(await contents(mehmet)).not.toContain('Z1 (own)');
    await svc.publish('follow.accepted', { followerId: mehmet.id, followeeId: zeynep.id });
    expect(await contents(mehmet)).toContain('Z1 (own)');
  });

  it('cuts both directions on a block', async () => {
    await svc.publish('block.created', { blockerId: zeynep.id, blockedId: mehmet.id });
    expect(await contents(mehmet)).not.toContain('Z1 (own)');
    await makeReview(svc, zeynep, { content: 'Z2 (after block)' });
    await svc.settle();
    expect(await contents(mehmet)).not.toContain('Z2 (after block)');
  });

  it('needs a token', async () => {
    expect((await svc.http().get('/api/feed')).status).toBe(401);
  });
});

describe('feed timeline cap and large accounts', () => {
  let svc: TestService;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.FEED_TIMELINE_CAP = '3';
    process.env.FEED_FANOUT_MAX_FOLLOWERS = '2';
    svc = await startReviews();
  });

  afterAll(async () => {
    process.env = saved;
    await svc.close();
  });

  it('keeps at most the cap in a timeline', async () => {
    const a = await member(svc, 'capped');
    await svc.http().get('/api/feed').set(a.auth);
    for (let i = 1; i <= 5; i++) await makeReview(svc, a, { content: `C${i}` });
    await svc.settle();
    const res = await svc.http().get('/api/feed').set(a.auth);
    expect(res.body.data.map((r: { content: string }) => r.content)).toEqual(['C5', 'C4', 'C3']);
    expect(res.body.meta.total).toBe(3);
  });

  it("merges a large account's reviews at read time instead of fanning them out", async () => {
    const star = await member(svc, 'star');
    const fans = [await member(svc, 'fan1'), await member(svc, 'fan2')];
    for (const f of fans) await svc.publish('follow.created', { followerId: f.id, followeeId: star.id });
    await makeReview(svc, fans[0], { content: 'fan post' });
    await makeReview(svc, star, { content: 'star post' });
    await svc.settle();
    const res = await svc.http().get('/api/feed').set(fans[0].auth);
    expect(res.body.data.map((r: { content: string }) => r.content)).toEqual(['star post', 'fan post']);
    expect(res.body.meta.total).toBe(2);
    const page2 = await svc.http().get('/api/feed?page=2&limit=1').set(fans[0].auth);
    expect(page2.body.data.map((r: { content: string }) => r.content)).toEqual(['fan post']);
  });
});
