import { Inject, Injectable } from '@nestjs/common';
import { LikerView, LikeStatus } from '@app/contracts';
import { ChangeProof, EventBus, OneOfChange, PlannedEvent } from '@app/bus';
import { Collection, STORE, Store, StoreUnavailableError } from '@app/store';
import { ActivitiesService } from '../activities/activities.service';
import { AudienceService } from '../audience/audience.service';
import { ReviewDoc } from '../reviews/review.collection';
import { ReviewCounts } from '../reviews/review-counts.service';
import { ReviewsService } from '../reviews/reviews.service';
import { UserCardsService } from '../users/user-cards.service';
import { LikeDoc, likesCollection } from './like.collection';
import { LikeFlip, LikeLedger } from './like-ledger';
import { Answer, ToggleBatches } from './toggle-batches';

/**
 * The like_count an intent announces, known before the write: the count read a moment ago, moved
 * by this toggle. A parallel toggle by another member in between is not in it (the reply's
 * like_count, read after the write, is exact).
 */
function countAfter(likeCount: number, liked: boolean): number {
  return liked ? likeCount + 1 : Math.max(0, likeCount - 1);
}

/** Where an outbox row of review.liked or review.unliked holds the like_count. */
const LIKE_COUNT_AT = ['event', 'payload', 'likeCount'];

/** review.liked or review.unliked, with the like_count it tells. */
function announcement(review: ReviewDoc, userId: string, liked: boolean, likeCount: number, proof: ChangeProof): PlannedEvent<'review.liked' | 'review.unliked'> {
  return {
    type: liked ? 'review.liked' : 'review.unliked',
    payload: { reviewId: review._id, reviewAuthorId: review.user_id, userId, likeCount },
    key: review._id,
    actorId: userId,
    proof,
  };
}

/** A member's toggle of a review's like, waiting for its batch. */
interface Toggle {
  userId: string;
  review: ReviewDoc;
}

/**
 * Two batches in flight: while one commits, the next gathers what came meanwhile. 32 toggles at
 * most in one transaction.
 */
const TOGGLE_BATCHES = { inFlight: 2, size: 32 };

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

@Injectable()
export class LikesService {
  private readonly likes: Collection<LikeDoc>;
  private readonly ledger: LikeLedger<LikeDoc>;
  private readonly batches = new ToggleBatches<Toggle, LikeStatus | undefined>((toggles) => this.toggleAllWithCommit(toggles), TOGGLE_BATCHES);

  constructor(
    @Inject(STORE) private readonly store: Store,
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
  toggle(userId: string, reviewId: string): Promise<LikeStatus> {
    // The review's checks and the transaction share one look at the caches' versions (PostgreSQL).
    const toggle = () => (this.bus.transactional ? this.toggleAtomically(userId, reviewId) : this.toggleByIntent(userId, reviewId));
    return this.store.withOneLook ? this.store.withOneLook(toggle) : toggle();
  }

  private async toggleAtomically(userId: string, reviewId: string): Promise<LikeStatus> {
    const review = await this.reviews.findForInteraction(reviewId, userId);
    const inOneTrip = await this.toggleWithCommit(userId, review);
    if (inOneTrip) return inOneTrip;
    // One transaction: the write decides, and the event, planned after it, tells the like_count it left.
    const flip = await this.bus.atomically(async () => {
      const done = await this.ledger.flip(reviewId, userId, this.counts.counted(reviewId, 'like_count'));
      if (done) {
        const proof = { collection: likesCollection, match: { review_id: reviewId, user_id: userId }, present: done.liked };
        await this.bus.emitWith(announcement(review, userId, done.liked, done.like_count, proof), async () => {
          await this.activity(userId, review, done.liked ? done.rowId : null);
          return true;
        });
      }
      return done;
    });
    return flip ? { liked: flip.liked, like_count: flip.like_count } : this.ledger.status(reviewId, userId);
  }

  /**
   * The toggle as one round trip, where the store can (PostgreSQL): the like row, the like_count,
   * the activity and the outbox row of either event go with the COMMIT, each write only for its
   * outcome, and the outcome picks the event, with the like_count its row was given. A round trip
   * cost a like 10-15 % (docs/PERFORMANCE.md, issue 44). Toggles that come while others are in
   * flight share the next transaction (`ToggleBatches`). Undefined where the store cannot.
   */
  private toggleWithCommit(userId: string, review: ReviewDoc): Promise<LikeStatus | undefined> {
    if (!this.ledger.flipsWithCommit) return Promise.resolve(undefined);
    return this.batches.submit({ userId, review });
  }

  /**
   * Toggles in one transaction, in the order of their reviews' ids: two transactions then take the
   * rows of the reviews they share in the same order, and never wait for each other in a cycle.
   * A failed batch goes again toggle by toggle, so that one toggle's failure is its own, unless
   * the store is unavailable (then a COMMIT that failed may have committed: not toggled twice).
   */
  private async toggleAllWithCommit(toggles: Toggle[]): Promise<Answer<LikeStatus | undefined>[]> {
    const order = toggles.map((_, i) => i).sort((a, b) => compareIds(toggles[a].review._id, toggles[b].review._id));
    const at = new Date().toISOString();
    let settled: ({ result: LikeFlip | null } | undefined)[];
    try {
      settled = await this.bus.emitOneOfEachWith(order.map((i) => this.flipOf(toggles[i], at)));
    } catch (err) {
      if (toggles.length === 1 || err instanceof StoreUnavailableError) throw err;
      return toggles.map(async (toggle) => (await this.toggleAllWithCommit([toggle]))[0]);
    }
    const statuses: (LikeStatus | undefined)[] = [];
    for (const [k, i] of order.entries()) {
      const { userId, review } = toggles[i];
      const flip = settled[k]?.result;
      statuses[i] = settled[k] && (flip ? { liked: flip.liked, like_count: flip.like_count } : await this.ledger.status(review._id, userId));
    }
    return statuses;
  }

  /** One toggle's change: the flip with the writes of both outcomes, and the event its outcome chose. */
  private flipOf({ userId, review }: Toggle, at: string): OneOfChange<LikeFlip | null> {
    const match = { review_id: review._id, user_id: userId };
    const planned = [true, false].map((liked) => announcement(review, userId, liked, 0, { collection: likesCollection, match, present: liked }));
    return {
      planned,
      change: (outbox, [likedRow, unlikedRow]) =>
        this.ledger.flipWithCommit(review._id, userId, this.counts.counted(review._id, 'like_count'), async (rowId) => {
          const activity = await this.activities.likeFollowUps(userId, review, rowId, at);
          return {
            inserted: [activity.inserted, { collection: outbox, insert: likedRow, countAt: LIKE_COUNT_AT }],
            deleted: [activity.deleted, { collection: outbox, insert: unlikedRow, countAt: LIKE_COUNT_AT }],
          };
        }),
      chosen: (flip) => flip && { index: flip.liked ? 0 : 1, payload: { ...planned[flip.liked ? 0 : 1].payload, likeCount: flip.like_count } },
    };
  }

  /**
   * Without transactions (MongoDB) the event is stored as an intent before the write, so its type
   * and like_count are known first: from the member's row and the count read a moment ago.
   */
  private async toggleByIntent(userId: string, reviewId: string): Promise<LikeStatus> {
    const [review, likeCount] = await Promise.all([
      this.reviews.findForInteraction(reviewId, userId),
      this.counts.of(reviewId, 'like_count'),
    ]);
    return this.ledger.toggle(reviewId, userId, (write, run) =>
      this.bus.emitWith(
        announcement(review, userId, write.liked, countAfter(likeCount, write.liked), {
          collection: likesCollection,
          match: { _id: write.rowId },
          present: write.liked,
        }),
        async () => {
          const moved = await run();
          if (moved) await this.activity(userId, review, write.liked ? write.rowId : null);
          return moved;
        },
      ),
    );
  }

  /** The liker's activity: recorded with the like row's id, or gone with the like (`likeId` null). */
  private async activity(userId: string, review: ReviewDoc, likeId: string | null): Promise<void> {
    if (likeId) await this.activities.recordLike(userId, review, likeId, new Date().toISOString());
    else await this.activities.forgetLike(userId, review._id);
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
