import { Inject, Injectable } from '@nestjs/common';
import { LikerView, LikeStatus } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { ReviewsService } from '../reviews/reviews.service';
import { UserCardsService } from '../users/user-cards.service';
import { LikeDoc, likesCollection } from './like.collection';

@Injectable()
export class LikesService {
  private readonly likes: Collection<LikeDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reviews: ReviewsService,
    private readonly cards: UserCardsService,
    private readonly bus: EventBus,
    private readonly audience: AudienceService,
  ) {
    this.likes = store.collection(likesCollection);
  }

  /**
   * Likes or unlikes. The (review, member) row decides: the counter moves only when this
   * request inserted or deleted it, so like_count equals the number of rows under any concurrency.
   */
  async toggle(userId: string, reviewId: string): Promise<LikeStatus> {
    const review = await this.reviews.findForInteraction(reviewId, userId);
    const existing = await this.likes.findOne({ review_id: reviewId, user_id: userId });
    if (existing) {
      if ((await this.likes.deleteOne({ _id: existing._id })) === 0) return this.status(userId, reviewId);
      const after = await this.reviews.bump(reviewId, 'like_count', -1);
      const likeCount = after?.like_count ?? 0;
      await this.bus.emit(
        'review.unliked',
        { reviewId, reviewAuthorId: review.user_id, userId, likeCount },
        { key: reviewId, actorId: userId },
      );
      return { liked: false, like_count: likeCount };
    }
    try {
      await this.likes.insert({ review_id: reviewId, user_id: userId, created_at: new Date().toISOString() });
    } catch (err) {
      // A parallel request of the same member liked first: report the state as it is.
      if (err instanceof DuplicateKeyError) return this.status(userId, reviewId);
      throw err;
    }
    const after = await this.reviews.bump(reviewId, 'like_count', 1);
    const likeCount = after?.like_count ?? 0;
    await this.bus.emit(
      'review.liked',
      { reviewId, reviewAuthorId: review.user_id, userId, likeCount },
      { key: reviewId, actorId: userId },
    );
    return { liked: true, like_count: likeCount };
  }

  async status(userId: string, reviewId: string): Promise<LikeStatus> {
    const [review, mine] = await Promise.all([
      this.reviews.findVisible(reviewId, userId),
      this.likes.findOne({ review_id: reviewId, user_id: userId }),
    ]);
    return { liked: mine !== null, like_count: review.like_count };
  }

  async likers(reviewId: string, viewerId: string, skip: number, limit: number): Promise<{ items: LikerView[]; total: number }> {
    await this.reviews.findVisible(reviewId, viewerId);
    // Members blocked either way with the viewer are left out of the list (like_count still counts them).
    const blocked = await this.audience.blockedWith(viewerId);
    const filter = blocked.length > 0 ? { review_id: reviewId, user_id: { $nin: blocked } } : { review_id: reviewId };
    const [rows, total] = await Promise.all([
      this.likes.find(filter, { sort: { created_at: -1 }, skip, limit }),
      this.likes.count(filter),
    ]);
    const cards = await this.cards.cardsFor(rows.map((r) => r.user_id));
    return { items: rows.map((r) => ({ ...cards.get(r.user_id)!, liked_at: r.created_at })), total };
  }

  async forgetReview(reviewId: string): Promise<void> {
    await this.likes.deleteMany({ review_id: reviewId });
  }
}
