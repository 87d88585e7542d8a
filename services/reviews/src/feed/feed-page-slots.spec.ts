import { TestService } from '@app/testing';
import { Cache } from '@app/store';
import { makeReview, member, Member, staffMember, startReviews } from '../reviews.fixture';
import { FeedService } from './feed.service';
import { FEED_CACHE } from './feed.settings';

/**
 * A feed page of limit N holds N reviews when N can be shown: a hidden or deleted review left in a
 * timeline (a hide, a late fan-out, a redelivery) takes no slot, and the next page starts right
 * after the last one shown, neither skipping nor repeating one.
 */
describe('feed pages: hidden and deleted reviews take no slot', () => {
  let svc: TestService;
  let mod: Member;
  let n = 0;
  /** Runs once just before the next entry leaves a timeline. */
  let beforeRemoval: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    svc = await startReviews();
    mod = await staffMember(svc, 'moderator', 'moderator');
    const cache = svc.app.get<Cache>(FEED_CACHE);
    const zrem = cache.zrem.bind(cache);
    cache.zrem = async (key: string, member: string) => {
      const run = beforeRemoval;
      beforeRemoval = undefined;
      if (run) await run();
      return zrem(key, member);
    };
  });

  afterAll(() => svc.close());

  /** A reader following an author who posted `count` reviews, newest first. */
  async function timeline(count: number): Promise<{ author: Member; reader: Member; ids: string[]; posted: Map<string, string> }> {
    n += 1;
    const [author, reader] = [await member(svc, `author${n}`), await member(svc, `reader${n}`)];
    await svc.publish('follow.created', { followerId: reader.id, followeeId: author.id });
    const ids: string[] = [];
    const posted = new Map<string, string>();
    for (let i = 0; i < count; i++) {
      const review = await makeReview(svc, author, { content: `Review ${i}` });
      ids.unshift(review.id);
      posted.set(review.id, review.created_at as string);
    }
    await svc.settle();
    return { author, reader, ids, posted };
  }

  const page = async (reader: Member, pageNo: number, limit: number, query = '') => {
    const res = await svc.http().get(`/api/feed?page=${pageNo}&limit=${limit}${query}`).set(reader.auth);
    expect(res.status).toBe(200);
    return { ids: (res.body.data as { id: string }[]).map((r) => r.id), total: res.body.meta.total as number };
  };

  const hide = async (id: string) => {
    expect((await svc.http().post(`/api/moderation/reviews/${id}/hide`).set(mod.auth).send({ reason: 'Spam' })).status).toBe(200);
    await svc.settle();
  };

  it('a page of limit 100 holds 100 reviews when one of its first hundred was hidden, and the next page the rest', async () => {
    const { reader, ids } = await timeline(103);
    await page(reader, 1, 100); // the timeline is filled before the hides
    await hide(ids[5]);
    await hide(ids[60]);
    const visible = ids.filter((id) => id !== ids[5] && id !== ids[60]);
    const first = await page(reader, 1, 100);
    expect(first.ids).toEqual(visible.slice(0, 100));
    expect(first.total).toBe(101);
    expect((await page(reader, 2, 100)).ids).toEqual(visible.slice(100));
  });

  it('a hidden review written into a timeline by a late fan-out takes no slot, on this page or the next', async () => {
    const { author, reader, ids, posted } = await timeline(6);
    await page(reader, 1, 3);
    await hide(ids[1]);
    // A fan-out of review.created delivered after the hide (a lagging consumer, a redelivery).
    await svc.app.get(FeedService).fanOut({ _id: ids[1], user_id: author.id, created_at: posted.get(ids[1]) as string });
    const visible = ids.filter((id) => id !== ids[1]);
    const first = await page(reader, 1, 3);
    expect(first.ids).toEqual(visible.slice(0, 3));
    expect(first.total).toBe(5);
    expect((await page(reader, 2, 3)).ids).toEqual(visible.slice(3));
  });

  it('a deleted review written back by a late fan-out takes no slot', async () => {
    const { author, reader, ids } = await timeline(5);
    await page(reader, 1, 2);
    const gone = ids[0];
    expect((await svc.http().delete(`/api/reviews/${gone}`).set(author.auth)).status).toBe(200);
    await svc.settle();
    await svc.app.get(FeedService).fanOut({ _id: gone, user_id: author.id, created_at: new Date().toISOString() });
    const first = await page(reader, 1, 2);
    expect(first.ids).toEqual(ids.slice(1, 3));
    expect(first.total).toBe(4);
    expect((await page(reader, 2, 2)).ids).toEqual(ids.slice(3, 5));
  });

  it('a review shown again comes back to its place in the feed', async () => {
    const { reader, ids } = await timeline(4);
    await page(reader, 1, 4);
    await hide(ids[2]);
    expect((await page(reader, 1, 4)).ids).toEqual([ids[0], ids[1], ids[3]]);
    expect((await svc.http().post(`/api/moderation/reviews/${ids[2]}/unhide`).set(mod.auth).send({ reason: 'Fine' })).status).toBe(200);
    await svc.settle();
    expect((await page(reader, 1, 4)).ids).toEqual(ids);
  });

  it('a review shown again while a page takes its entry out stays in the feed', async () => {
    const { author, reader, ids, posted } = await timeline(4);
    await page(reader, 1, 4);
    await hide(ids[1]);
    await svc.app.get(FeedService).fanOut({ _id: ids[1], user_id: author.id, created_at: posted.get(ids[1]) as string });
    // The page finds the review hidden; it is shown again (its fan-out finds the entry there) before the page's removal.
    beforeRemoval = async () => {
      expect((await svc.http().post(`/api/moderation/reviews/${ids[1]}/unhide`).set(mod.auth).send({ reason: 'Fine' })).status).toBe(200);
      await svc.settle();
    };
    expect((await page(reader, 1, 4)).ids).toEqual(ids);
    expect(beforeRemoval).toBeUndefined();
    expect((await page(reader, 1, 4)).ids).toEqual(ids);
  });

  it('a page merged with a followed tag is full too', async () => {
    const { reader, ids } = await timeline(5);
    expect((await svc.http().post('/api/tags/kettles/follow').set(reader.auth)).status).toBe(200);
    await page(reader, 1, 3);
    await hide(ids[0]);
    const first = await page(reader, 1, 3);
    expect(first.ids).toEqual(ids.slice(1, 4));
    expect((await page(reader, 2, 3)).ids).toEqual(ids.slice(4));
  });
});
