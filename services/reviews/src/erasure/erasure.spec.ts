import { TestService } from '@app/testing';
import { activitiesCollection } from '../activities/activity.collection';
import { commentsCollection } from '../comments/comment.collection';
import { likesCollection } from '../likes/like.collection';
import { listItemsCollection, listsCollection } from '../lists/lists.collection';
import { mediaCollection } from '../media/media.collection';
import { productLikesCollection } from '../products/product-like.collection';
import { productsCollection } from '../products/product.collection';
import { followEdgesCollection, followerCountsCollection } from '../read-models/follow-graph.collection';
import { reviewsCollection } from '../reviews/review.collection';
import { reviewCountsCollection } from '../reviews/review-counts.collection';
import { savedCollection } from '../saved/saved.collection';
import { tagFollowsCollection } from '../tags/tag-follow.collection';
import { makeProduct, makeReview, Member, member, PNG_1PX, startReviews } from '../reviews.fixture';

describe('reviews erasure (user.deleted)', () => {
  let svc: TestService;
  let gone: Member;
  let ali: Member;
  let burak: Member;
  let productId: string;
  let alisReviewId: string;
  let mediaId: string;
  let goneProductId: string;
  let goneReviewId: string;

  beforeAll(async () => {
    svc = await startReviews();
    [gone, ali, burak] = [await member(svc, 'gone'), await member(svc, 'ali'), await member(svc, 'burak')];
    await svc.publish('follow.created', { followerId: ali.id, followeeId: gone.id });
    await svc.publish('follow.created', { followerId: gone.id, followeeId: ali.id });
    await svc.publish('follow.created', { followerId: burak.id, followeeId: ali.id });
    productId = (await makeProduct(svc, ali, { name: 'Shared Kettle' })).id;
    mediaId = (await svc.http().post('/api/media').set(gone.auth).attach('file', PNG_1PX, 'a.png')).body.data.id;
    goneProductId = (await makeProduct(svc, gone, { name: 'Gone Lamp', image: `/api/media/${mediaId}` })).id;
    alisReviewId = (await makeReview(svc, ali, { product_id: productId, rating: 4 })).id;
    await makeReview(svc, burak, { product_id: productId, rating: 2 });
    const goneReview = (goneReviewId = (await makeReview(svc, gone, { product_id: productId, rating: 5 })).id);
    await makeReview(svc, gone, { content: 'A composer post' });
    const http = svc.http();
    await http.post(`/api/likes/reviews/${alisReviewId}`).set(gone.auth);
    await http.post(`/api/likes/reviews/${alisReviewId}`).set(burak.auth);
    await http.post(`/api/likes/reviews/${goneReview}`).set(ali.auth);
    await http.post(`/api/likes/products/${productId}`).set(gone.auth);
    await http.post(`/api/likes/products/${productId}`).set(ali.auth);
    await http.post(`/api/reviews/${alisReviewId}/comments`).set(gone.auth).send({ content: 'Nice one' });
    await http.post(`/api/reviews/${alisReviewId}/comments`).set(burak.auth).send({ content: 'Agreed' });
    await http.post(`/api/reviews/${goneReview}/comments`).set(ali.auth).send({ content: 'Thanks' });
    await http.post(`/api/saved/reviews/${goneReview}`).set(ali.auth);
    await http.post(`/api/saved/products/${productId}`).set(gone.auth);
    expect((await http.post('/api/tags/kettles/follow').set(gone.auth)).status).toBe(200);
    const list = await http.post('/api/lists').set(gone.auth).send({ name: 'Mine', visibility: 'public' });
    await http.post(`/api/lists/${list.body.data.id}/items`).set(gone.auth).send({ product_id: productId });
    await svc.settle();
    // Ali's feed holds Gone's reviews before the deletion.
    expect((await http.get('/api/feed').set(ali.auth)).body.data.map((r: { user_id: string }) => r.user_id)).toContain(gone.id);
  });

  afterAll(() => svc.close());

  const count = (def: Parameters<TestService['store']['collection']>[0], filter: Record<string, unknown>) => svc.store.collection(def).count(filter);

  it('leaves nothing of theirs and exact counters on the others\' things; twice is the same', async () => {
    for (let delivery = 0; delivery < 2; delivery++) {
      await svc.publish('user.deleted', { userId: gone.id });
      expect(await count(reviewsCollection, { user_id: gone.id })).toBe(0);
      expect(await count(likesCollection, { user_id: gone.id })).toBe(0);
      expect(await count(commentsCollection, { user_id: gone.id })).toBe(0);
      expect(await count(productLikesCollection, { user_id: gone.id })).toBe(0);
      expect(await count(savedCollection, { user_id: gone.id })).toBe(0);
      expect(await count(tagFollowsCollection, { user_id: gone.id })).toBe(0);
      expect(await count(listsCollection, { user_id: gone.id })).toBe(0);
      expect(await count(listItemsCollection, {})).toBe(0);
      expect(await count(activitiesCollection, { $or: [{ user_id: gone.id }, { review_author_id: gone.id }] })).toBe(0);
      expect(await count(mediaCollection, { owner_id: gone.id })).toBe(0);
      expect(await count(followEdgesCollection, { $or: [{ follower_id: gone.id }, { followee_id: gone.id }] })).toBe(0);
      // What others left on Gone's reviews went with them.
      expect(await count(likesCollection, { user_id: ali.id })).toBe(0);
      expect(await count(commentsCollection, { user_id: ali.id })).toBe(0);
      expect(await count(savedCollection, { user_id: ali.id })).toBe(0);

      const review = await svc.store.collection(reviewCountsCollection).findById(alisReviewId);
      expect(review).toMatchObject({ like_count: 1, comment_count: 1 });
      // Gone's reviews' counts went with them.
      expect(await svc.store.collection(reviewCountsCollection).findById(goneReviewId)).toBeNull();
      const product = await svc.store.collection(productsCollection).findById(productId);
      expect(product).toMatchObject({ review_count: 2, rating_sum: 6, like_count: 1 });
      expect((await svc.http().get(`/api/products/${productId}`).set(ali.auth)).body.data).toMatchObject({ rating: 3, review_count: 2 });
      expect(await svc.store.collection(followerCountsCollection).findById(ali.id)).toMatchObject({ follower_count: 1 });
      expect(await svc.store.collection(productsCollection).findById(goneProductId)).toMatchObject({ image: null, image_alt: null });
      expect((await svc.http().get(`/api/media/${mediaId}`)).status).toBe(404);
      const feed = await svc.http().get('/api/feed').set(ali.auth);
      expect(feed.body.data.map((r: { user_id: string }) => r.user_id)).not.toContain(gone.id);
      expect(feed.body.meta.total).toBe(feed.body.data.length);
    }
  });

  it('ignores a late follow, like, comment or squad join of theirs and refuses their still-signed token (issue 31 §2)', async () => {
    await svc.publish('user.deleted', { userId: gone.id });
    const at = new Date().toISOString();
    await svc.publish('follow.created', { followerId: gone.id, followeeId: ali.id }, gone.id, gone.id);
    await svc.publish('follow.created', { followerId: burak.id, followeeId: gone.id }, burak.id, burak.id);
    await svc.publish('review.liked', { reviewId: alisReviewId, reviewAuthorId: ali.id, userId: gone.id, likeCount: 2 }, alisReviewId, gone.id);
    await svc.publish('comment.created', { commentId: 'c-late', reviewId: alisReviewId, reviewAuthorId: ali.id, userId: gone.id, excerpt: 'late' }, alisReviewId, gone.id);
    await svc.publish('squad.member_joined', { squadId: 's-late', squadName: 'Late', userId: gone.id, role: 'member', joined_at: at }, 's-late', gone.id);
    expect(await count(followEdgesCollection, { $or: [{ follower_id: gone.id }, { followee_id: gone.id }] })).toBe(0);
    expect(await svc.store.collection(followerCountsCollection).findById(ali.id)).toMatchObject({ follower_count: 1 });
    expect(await count(activitiesCollection, { $or: [{ user_id: gone.id }, { review_author_id: gone.id }] })).toBe(0);
    const like = await svc.http().post(`/api/likes/reviews/${alisReviewId}`).set(gone.auth);
    expect(like.status).toBe(401);
    expect(await count(likesCollection, { user_id: gone.id })).toBe(0);
    expect(await svc.store.collection(reviewCountsCollection).findById(alisReviewId)).toMatchObject({ like_count: 1, comment_count: 1 });
  });
});
