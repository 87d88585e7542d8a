import { EventBus } from '@app/bus';
import { probeStore, TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';

/**
 * What a feed page reads from the store once the viewer's context is in memory (issue 28 §2): the
 * viewer's likes and saved marks. The context's stamps, the page's reviews, their authors and
 * products are read by id, which the SQLite store's document cache answers once they were read;
 * the timeline itself is in the cache. Round 6: ten reads, five of them the viewer's settings;
 * round 7: six.
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

  it('reads twice: likes and saved marks, the rest by id from the document cache', async () => {
    expect((await svc.http().get('/api/feed').set(mehmet.auth)).body.data).toHaveLength(2); // loads the context
    await svc.app.get(EventBus).dropPublished(); // published rows of the setup go now, not during the page
    const probe = probeStore(svc.store);
    try {
      const res = await svc.http().get('/api/feed').set(mehmet.auth);
      expect(res.body.data).toHaveLength(2);
      expect(probe.reads).toBe(2);
      expect(probe.writes).toBe(0);
    } finally {
      probe.stop();
    }
  });
});
