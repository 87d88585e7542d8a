import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, staffMember, startReviews } from '../reviews.fixture';

/**
 * Issue 43 §2: a product's review count has one source, and every read of it (the product, the
 * catalogue, the link card) moves at once when a review is hidden, shown again or deleted; the
 * viewer's own marks (saved, liked) come with the product.
 */
describe('one count per fact (issue 43 §2)', () => {
  let svc: TestService;
  let ayse: Member;
  let mehmet: Member;
  let zeynep: Member;
  let mod: Member;

  beforeAll(async () => {
    svc = await startReviews();
    [ayse, mehmet, zeynep] = [await member(svc, 'ayse'), await member(svc, 'mehmet'), await member(svc, 'zeynep')];
    mod = await staffMember(svc, 'mod', 'moderator');
  });

  afterAll(() => svc.close());

  const http = () => svc.http();

  it('a hidden review leaves the product, catalogue and link card counts and average at once; shown again, it is back', async () => {
    const product = await makeProduct(svc, ayse, { name: 'Counted Kettle' });
    await makeReview(svc, ayse, { product_id: product.id, rating: 5 });
    const spam = await makeReview(svc, mehmet, { product_id: product.id, rating: 1 });
    await makeReview(svc, zeynep, { product_id: product.id, rating: 4 });
    const counts = async () => {
      const page = (await http().get(`/api/products/${product.id}`).set(ayse.auth)).body.data;
      const listed = (await http().get('/api/products?search=Counted').set(ayse.auth)).body.data[0];
      const card = (await http().get(`/api/cards/products/${product.slug}`)).body.data;
      const list = (await http().get(`/api/reviews?productId=${product.id}`).set(ayse.auth)).body.meta.total;
      return { page: page.review_count, rating: page.rating, listed: listed.review_count, card: card.description.split('.')[0] + '.' + card.description.split('.')[1], list };
    };
    expect(await counts()).toEqual({ page: 3, rating: 3.33, listed: 3, card: '3.3/5 from 3 reviews', list: 3 });

    expect((await http().post(`/api/moderation/reviews/${spam.id}/hide`).set(mod.auth).send({ reason: 'Spam' })).status).toBe(200);
    expect(await counts()).toEqual({ page: 2, rating: 4.5, listed: 2, card: '4.5/5 from 2 reviews', list: 2 });
    // hiding twice moves nothing
    await http().post(`/api/moderation/reviews/${spam.id}/hide`).set(mod.auth).send({ reason: 'Again' });
    expect((await counts()).page).toBe(2);

    expect((await http().post(`/api/moderation/reviews/${spam.id}/unhide`).set(mod.auth).send({ reason: 'Appeal' })).status).toBe(200);
    await svc.settle();
    expect(svc.emitted('moderation.content_shown')).toContainEqual({ kind: 'review', contentId: spam.id, authorId: mehmet.id });
    expect(await counts()).toEqual({ page: 3, rating: 3.33, listed: 3, card: '3.3/5 from 3 reviews', list: 3 });

    // a hidden review deleted by its author does not take the count down a second time
    await http().post(`/api/moderation/reviews/${spam.id}/hide`).set(mod.auth).send({ reason: 'Spam' });
    expect((await http().delete(`/api/reviews/${spam.id}`).set(mehmet.auth)).status).toBe(200);
    expect(await counts()).toEqual({ page: 2, rating: 4.5, listed: 2, card: '4.5/5 from 2 reviews', list: 2 });
  });

  it('hidden reviews leave the trending counts', async () => {
    const before = (await http().get('/api/trending/tags').set(ayse.auth)).body.data.find((t: { tag: string }) => t.tag === 'hushed');
    expect(before).toBeUndefined();
    const review = await makeReview(svc, mehmet, { content: 'Quiet one #hushed' });
    const tagged = async () => (await http().get('/api/trending/tags').set(ayse.auth)).body.data.find((t: { tag: string }) => t.tag === 'hushed');
    expect((await tagged())?.reviews_this_week).toBe(1);
    await http().post(`/api/moderation/reviews/${review.id}/hide`).set(mod.auth).send({ reason: 'Spam' });
    expect(await tagged()).toBeUndefined();
  });

  it('a product says whether the viewer saved it, on its page, in the catalogue and on the saved list', async () => {
    const product = await makeProduct(svc, ayse, { name: 'Saved Lamp' });
    const saved = async (who: Member) => ({
      page: (await http().get(`/api/products/${product.id}`).set(who.auth)).body.data.saved,
      listed: (await http().get('/api/products?search=Saved%20Lamp').set(who.auth)).body.data[0].saved,
    });
    expect(await saved(mehmet)).toEqual({ page: false, listed: false });
    expect((await http().post(`/api/saved/products/${product.id}`).set(mehmet.auth)).status).toBe(200);
    expect(await saved(mehmet)).toEqual({ page: true, listed: true });
    expect(await saved(zeynep)).toEqual({ page: false, listed: false });
    const list = (await http().get('/api/saved?type=products').set(mehmet.auth)).body.data;
    expect(list.map((p: { id: string; saved: boolean }) => [p.id, p.saved])).toContainEqual([product.id, true]);
    await http().delete(`/api/saved/products/${product.id}`).set(mehmet.auth);
    expect(await saved(mehmet)).toEqual({ page: false, listed: false });
  });
});
