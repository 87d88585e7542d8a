import { Inject, Injectable } from '@nestjs/common';
import { LikerView, LikeStatus } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, STORE, Store } from '@app/store';
import { ActivitiesService } from '../activities/activities.service';
import { AudienceService } from '../audience/audience.service';
import { ReviewCounts } from '../reviews/review-counts.service';
import { ReviewsService } from '../reviews/reviews.service';
import { UserCardsService } from '../users/user-cards.service';
import { LikeDoc, likesCollection } from './like.collection';
import { LikeLedger } from './like-ledger';

/**
 * The like_count an event announces, known before the write as the intent requires: the count
 * read a moment ago, moved by this toggle. A parallel toggle by another member in between is
 * not in it (the reply's like_count, read after the write, is exact).
 */
function countAfter(likeCount: number, liked: boolean): number {
  return liked ? likeCount + 1 : Math.max(0, likeCount - 1);
}

@Injectable()
export class LikesService {
  private readonly likes: Collection<LikeDoc>;
  private readonly ledger: LikeLedger<LikeDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reviews: ReviewsService,
    private readonly cards: UserCardsService,
    private readonly bus: EventBus,
    private readonly audience: AudienceService,
    private readonly activities: ActivitiesService,
    private readonly counts: ReviewCounts,
  ) {
    this.likes = store.collection(likesCollection);
    this.ledger = new LikeLedger(
      this.likes,
      'review_id',
      {
        likeCount: (id) => reviews.countOf(id, 'like_count'),
        bump: (id, delta) => reviews.bump(id, 'like_count', delta),
      },
      (reviewId, userId) => ({ review_id: reviewId, user_id: userId, created_at: new Date().toISOString() }),
    );
  }

  /**
   * Likes or unlikes exactly (see LikeLedger) and announces a real change. The like row, the
   * review's like_count, the liker's activity and the event's outbox row commit together.
   */
  async toggle(userId: string, reviewId: string): Promise<LikeStatus> {
    const [review, likeCount] = await Promise.all([
      this.reviews.findForInteraction(reviewId, userId),
      this.counts.of(reviewId, 'like_count'),
    ]);
    return this.ledger.toggle(reviewId, userId, (write, run) =>
      this.bus.emitWith(
        {
          type: write.liked ? 'review.liked' : 'review.unliked',
          payload: { reviewId, reviewAuthorId: review.user_id, userId, likeCount: countAfter(likeCount, write.liked) },
          key: reviewId,
          actorId: userId,
          proof: { collection: likesCollection, match: { _id: write.rowId }, present: write.liked },
        },
        async () => {
          const moved = await run();
          if (moved && write.liked) await this.activities.recordLike(userId, review, write.rowId, new Date().toISOString());
          if (moved && !write.liked) await this.activities.forgetLike(userId, reviewId);
          return moved;
        },
      ),
    );
  }

  async status(userId: string, reviewId: string): Promise<LikeStatus> {
    await this.reviews.findVisible(reviewId, userId);
    return this.ledger.status(reviewId, userId);
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
    await this.ledger.forget(reviewId);
  }
}
