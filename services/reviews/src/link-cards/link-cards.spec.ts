import { TestService } from '@app/testing';
import { makeProduct, makeReview, member, Member, startReviews } from '../reviews.fixture';
import { ReviewsService } from '../reviews/reviews.service';

describe('link cards of products and reviews (issue 30 §4)', () => {
  let svc: TestService;
  let bora: Member;
  let cem: Member;
  let product: { id: string; slug: string };

  const card = (path: string) => svc.http().get(`/api/cards${path}`);
  const setPrivacy = (m: Member, privacy_profile: 'public' | 'friends' | 'private') =>
    svc.publish('user.settings_updated', { userId: m.id, notification_email: true, notification_push: true, privacy_profile, theme: 'system' });

  beforeAll(async () => {
    svc = await startReviews();
    [bora, cem] = [await member(svc, 'bora'), await member(svc, 'cem')];
    product = await makeProduct(svc, bora, { name: 'Kahve Makinesi', brand: 'Arçelik', description: 'Espresso & <milk> foam.' });
    await svc.settle();
  });
  afterAll(() => svc.close());

  it("answers a product's card to anyone, with its rating once it has reviews", async () => {
    const before = await card(`/products/${product.slug}`);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({
      type: 'product',
      title: 'Kahve Makinesi by Arçelik',
      description: 'Espresso & <milk> foam.',
      image: null,
      image_alt: null,
      rating: null,
    });
    await makeReview(svc, bora, { product_id: product.id, rating: 4, content: 'Good crema.' });
    await svc.settle();
    const after = await card(`/products/${product.id}`);
    expect(after.body.data.rating).toBe(4);
    expect(after.body.data.description).toBe('4.0/5 from 1 review. Espresso & <milk> foam.');
    expect((await card('/products/no-such-product')).status).toBe(404);
  });

  it("answers the catalogue's card with its size and its first card's picture (the newest product)", async () => {
    const only = await card('/catalogue');
    expect(only.status).toBe(200);
    expect(only.body.data).toEqual({
      type: 'website',
      title: 'Products',
      description: '1 product rated and reviewed by the community.',
      image: null,
      image_alt: null,
      rating: null,
    });
    await makeProduct(svc, cem, { name: 'Çaydanlık', image: '/api/media/6b09af7801aa60db25b3dcda', image_alt: '' });
    const two = (await card('/catalogue')).body.data;
    expect(two).toMatchObject({ description: '2 products rated and reviewed by the community.', image: '/api/media/6b09af7801aa60db25b3dcda', image_alt: 'Çaydanlık' });
  });

  it("answers a public review's card with its author, product, rating and text", async () => {
    const review = await makeReview(svc, cem, { product_id: product.id, rating: 5, content: 'The   best\ncoffee I have had at home.' });
    const res = await card(`/reviews/${review.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      type: 'article',
      title: 'Cem on Kahve Makinesi',
      description: 'The best coffee I have had at home.',
      image: null,
      image_alt: null,
      rating: 5,
    });
  });

  it('keeps a spoiler out of the card', async () => {
    const dan = await member(svc, 'dan');
    const review = await makeReview(svc, dan, { product_id: product.id, rating: 3, content: 'The ending: the butler did it.', has_spoilers: true });
    const res = await card(`/reviews/${review.id}`);
    expect(res.body.data.description).toBe('Contains spoilers');
    expect(JSON.stringify(res.body)).not.toContain('butler');
  });

  it('has no card for a review by a non-public author (403) or one hidden by moderation (404: not there)', async () => {
    const eda = await member(svc, 'eda');
    const privateReview = await makeReview(svc, eda, { product_id: product.id, rating: 2, content: 'Only for my friends.' });
    await setPrivacy(eda, 'friends');
    await svc.settle();
    const hidden = await card(`/reviews/${privateReview.id}`);
    expect(hidden.status).toBe(403);
    expect(JSON.stringify(hidden.body)).not.toContain('friends');

    const fia = await member(svc, 'fia');
    const moderated = await makeReview(svc, fia, { product_id: product.id, rating: 1, content: 'Removed words.' });
    expect((await card(`/reviews/${moderated.id}`)).status).toBe(200);
    await svc.app.get(ReviewsService).setHidden(moderated.id, new Date().toISOString());
    expect((await card(`/reviews/${moderated.id}`)).status).toBe(404);
    expect((await card('/reviews/missing')).status).toBe(404);
  });
});
