import { EventBus } from '@app/bus';
import { probeStore, TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/**
 * What a feed page reads from the store once the viewer's context is in memory (issue 28 §2):
 * nothing, once a page was read. The context's stamps, the page's reviews, their authors and
 * products are read by id, and the viewer's likes and saved marks by unique key, which the SQLite
 * store's document cache answers, absent ones included; the timeline itself is in the cache.
 * Round 6: ten reads, five of them the viewer's settings; round 7: six; round 16: none.
 */
describe('feed page: store reads', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet] = [await member(svc, 'ayse'), await member(svc, 'mehmet')];
    await svc.publish('follow.created', { followerId: mehmet.id, followeeId: ayse.id });
    await svc.publish('mute.created', { muterId: mehmet.id, mutedId: 'someone-else' });
    const product = await makeProduct(svc, ayse, { name: 'Kettle' });
    await makeReview(svc, ayse, { content: 'Boils fast', product_id: product.id, rating: 4 });
    await makeReview(svc, ayse, { content: 'Plain one' });
    await svc.settle();
    expect((await svc.http().post('/api/filters').set(mehmet.auth).send({ phrase: 'nothing-matches' })).status).toBe(201);
  });

  afterAll(() => svc.close());

  const page = () => svc.http().get('/api/feed').set(mehmet.auth);

  /** The page's reads and writes of the store, and its reviews. */
  async function probedPage() {
    await svc.app.get(EventBus).dropPublished(); // published rows of earlier writes go now, not during the page
    const probe = probeStore(svc.store);
    try {
      const res = await page();
      return { reads: probe.reads, writes: probe.writes, items: res.body.data as { content: string; liked: boolean; saved: boolean }[] };
    } finally {
      probe.stop();
    }
  }

  it('reads nothing once a page was read: every lookup is answered from the document cache', async () => {
    expect((await page()).body.data).toHaveLength(2); // loads the context, the marks found absent
    const { reads, writes, items } = await probedPage();
    expect(items).toHaveLength(2);
    expect([reads, writes]).toEqual([0, 0]);
  });

  it('shows a like or a save on the next page, and its undoing too', async () => {
    const [first, second] = (await page()).body.data as { id: string }[];
    expect((await svc.http().post(`/api/likes/reviews/${first.id}`).set(mehmet.auth)).status).toBe(200);
    expect((await svc.http().post(`/api/saved/reviews/${second.id}`).set(mehmet.auth)).status).toBe(200);
    const marked = await probedPage();
    expect(marked.items.map((r) => [r.liked, r.saved])).toEqual([[true, false], [false, true]]);
    expect(marked.reads).toBeGreaterThan(0); // the written keys are read again
    expect((await probedPage()).reads).toBe(0);
    await svc.http().post(`/api/likes/reviews/${first.id}`).set(mehmet.auth); // the toggle back
    await svc.http().delete(`/api/saved/reviews/${second.id}`).set(mehmet.auth);
    expect((await probedPage()).items.map((r) => [r.liked, r.saved])).toEqual([[false, false], [false, false]]);
  });
});
