import { DuplicateKeyError, newId } from '@app/store';
import { probeStore, TestService } from '@app/testing';
import { makeProduct, makeReview, Member, member, startReviews } from '../reviews.fixture';
import { productsCollection } from '../products/product.collection';
import { ReviewsService } from '../reviews/reviews.service';
import { CatalogueImportService } from './catalogue-import.service';

describe('reviews import (reviews)', () => {
  let svc: TestService;
  let importer: CatalogueImportService;
  let ada: Member;
  let bora: Member;
  let gone: Member;
  let kettle: string;
  let lamp: string;

  beforeAll(async () => {
    svc = await startReviews();
    importer = svc.app.get(CatalogueImportService);
    [ada, bora, gone] = [await member(svc, 'ada'), await member(svc, 'bora'), await member(svc, 'gone')];
    await svc.publish('user.deleted', { userId: gone.id });
    kettle = (await makeProduct(svc, ada, { name: 'Import Kettle' })).id;
    lamp = (await makeProduct(svc, ada, { name: 'Import Lamp' })).id;
    await makeReview(svc, bora, { product_id: lamp, rating: 2 });
  });

  afterAll(() => svc.close());

  const product = (id: string) => svc.store.collection(productsCollection).findById(id);

  it("answers each row as the route would, in order, with the products' ratings and the events", async () => {
    const probe = probeStore(svc.store);
    const report = await importer.importReviews([
      { user_id: ada.id, product_id: kettle, rating: 4, content: 'Boils fast #kitchen' },
      { user_id: bora.id, product_id: kettle, rating: 5, content: 'Quiet' },
      { user_id: ada.id, product_id: kettle, rating: 1, content: 'Again' },
      { user_id: bora.id, product_id: lamp, rating: 5, content: 'Reviewed before' },
      { user_id: ada.id, product_id: lamp, rating: 5, content: 'Bright' },
      { user_id: ada.id, content: 'No product at all' },
      { user_id: ada.id, product_id: newId(), rating: 3, content: 'No such product' },
      { user_id: gone.id, content: 'Erased member' },
      { user_id: newId(), content: 'Unknown member' },
    ]);
    probe.stop();
    expect(report.imported.map((r) => (r ? 'id' : null))).toEqual(['id', 'id', null, null, 'id', 'id', null, null, null]);
    expect(report.rejected.map((r) => [r.index, r.status, r.message])).toEqual([
      [2, 409, 'You have already reviewed this product'],
      [3, 409, 'You have already reviewed this product'],
      [6, 404, 'Product not found'],
      [7, 404, 'Unknown member'],
      [8, 404, 'Unknown member'],
    ]);
    // A handful for the batch, not several per row; under test every event's proof is read back (4 of the reads).
    expect(probe.reads - 4).toBeLessThanOrEqual(5);
    expect(probe.writes).toBeLessThanOrEqual(6);
    expect(await product(kettle)).toEqual(expect.objectContaining({ rating_sum: 9, review_count: 2 }));
    expect(await product(lamp)).toEqual(expect.objectContaining({ rating_sum: 7, review_count: 2 }));
    await svc.settle();
    const created = svc.emitted('review.created').slice(-4);
    expect(created.map((e) => [e.reviewId, e.authorId, e.productName, e.rating, e.tags])).toEqual([
      [report.imported[0]!.id, ada.id, 'Import Kettle', 4, ['kitchen']],
      [report.imported[1]!.id, bora.id, 'Import Kettle', 5, []],
      [report.imported[4]!.id, ada.id, 'Import Lamp', 5, []],
      [report.imported[5]!.id, ada.id, null, null, []],
    ]);
  });

  it('adds products in one insert with their events; a slug taken sends the batch product by product, each under a free slug', async () => {
    const before = svc.emitted('product.created').length;
    const proto = Object.getPrototypeOf(svc.store.collection(productsCollection)) as Record<'insert' | 'insertMany', (...args: unknown[]) => unknown>;
    let inserts = 0;
    const spies = (['insert', 'insertMany'] as const).map((method) => {
      const real = proto[method];
      return jest.spyOn(proto, method).mockImplementation(function (this: { name: string }, ...args: unknown[]) {
        if (this.name === productsCollection.name) inserts++;
        return real.apply(this, args);
      });
    });
    const row = (user: Member, name: string) => ({ user_id: user.id, name, category: 'Electronics' });
    const first = await importer.importProducts([row(ada, 'Batch Mug'), row(gone, 'Batch Gone'), row(bora, 'Batch Tray')]);
    spies.forEach((spy) => spy.mockRestore());
    expect(inserts).toBe(1);
    expect(first.rejected).toEqual([expect.objectContaining({ index: 1, status: 404, message: 'Unknown member' })]);
    expect(first.imported.map((r) => r?.slug ?? null)).toEqual(['batch-mug', null, 'batch-tray']);
    // 'Batch Mug' is taken now, and the batch names 'Batch Bowl' twice.
    const second = await importer.importProducts([row(ada, 'Batch Mug'), row(ada, 'Batch Bowl'), row(bora, 'Batch Bowl')]);
    expect(second.rejected).toEqual([]);
    expect(second.imported.map((r) => r?.slug)).toEqual(['batch-mug-2', 'batch-bowl', 'batch-bowl-2']);
    await svc.settle();
    expect(svc.emitted('product.created').slice(before).map((e) => e.slug)).toEqual(['batch-mug', 'batch-tray', 'batch-mug-2', 'batch-bowl', 'batch-bowl-2']);
  });

  it("moves every product's rating in one write, each by its own amounts", async () => {
    const ids: string[] = [];
    for (const name of ['Cup', 'Bowl', 'Plate', 'Jug']) ids.push((await makeProduct(svc, ada, { name: `Import ${name}` })).id);
    // The writes of the products' collection (the import's own: its events' handlers write elsewhere).
    const proto = Object.getPrototypeOf(svc.store.collection(productsCollection)) as Record<string, (...args: unknown[]) => unknown>;
    let writes = 0;
    const spies = ['insertMany', 'updateOne', 'updateMany', 'incrementEach', 'findOneAndUpdate', 'deleteOne', 'deleteMany'].map((method) => {
      const real = proto[method];
      return jest.spyOn(proto, method).mockImplementation(function (this: { name: string }, ...args: unknown[]) {
        if (this.name === productsCollection.name) writes++;
        return real.apply(this, args);
      });
    });
    const writesOf = async (rows: { user_id: string; product_id: string; rating: number; content: string }[]) => {
      writes = 0;
      expect((await importer.importReviews(rows)).rejected).toEqual([]);
      return writes;
    };
    const one = await writesOf([{ user_id: ada.id, product_id: ids[0], rating: 2, content: 'One product' }]);
    const four = await writesOf(ids.map((id, i) => ({ user_id: bora.id, product_id: id, rating: i + 2, content: `Product ${i}` })));
    spies.forEach((spy) => spy.mockRestore());
    expect([one, four]).toEqual([1, 1]);
    expect(await Promise.all(ids.map(async (id) => (({ rating_sum, review_count }) => [rating_sum, review_count])((await product(id))!)))).toEqual([
      [4, 2],
      [3, 1],
      [4, 1],
      [5, 1],
    ]);
  });

  it('goes row by row when another writer stored a review meanwhile, leaving nothing of the batch', async () => {
    const reviews = svc.app.get(ReviewsService);
    const pen = (await makeProduct(svc, ada, { name: 'Import Pen' })).id;
    const real = ReviewsService.prototype.writeMany;
    jest.spyOn(reviews, 'writeMany').mockImplementationOnce(async (entries) => {
      await real.call(reviews, entries);
      throw new DuplicateKeyError('reviews', 'a review stored meanwhile');
    });
    const before = svc.emitted('review.created').length;
    const report = await importer.importReviews([
      { user_id: ada.id, product_id: pen, rating: 3, content: 'Writes' },
      { user_id: bora.id, product_id: pen, rating: 4, content: 'Smooth' },
    ]);
    expect(report.rejected).toEqual([]);
    expect(await product(pen)).toEqual(expect.objectContaining({ rating_sum: 7, review_count: 2 }));
    await svc.settle();
    expect(svc.emitted('review.created').slice(before).map((e) => e.reviewId)).toEqual(report.imported.map((r) => r!.id));
  });
});
