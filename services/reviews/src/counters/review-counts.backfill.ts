import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { SERVICE_LOGGER } from '@app/platform';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';
import { ReviewCountsDoc, reviewCountsCollection } from '../reviews/review-counts.collection';
import { backfillsCollection } from '../tags/tags.backfill';

/** Reviews read per round: a flat memory use however many are stored. */
export const REVIEW_COUNTS_BACKFILL_BATCH = 200;

/**
 * Boot-time move of like_count and comment_count out of reviews stored before review_counts:
 * each such review's counts become its review_counts row (when not 0) and leave the review.
 * A row already there (a crash between the two writes, or the counter repair first) is kept.
 * It runs before the service serves, leaves a row in `backfills` when it reaches the end, and a
 * failure is logged without stopping the service (the next boot carries on).
 */
@Injectable()
export class ReviewCountsBackfill implements OnApplicationBootstrap {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly counts: Collection<ReviewCountsDoc>;
  private readonly done: Collection<{ _id: string; at: string }>;

  constructor(
    @Inject(STORE) store: Store,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.reviews = store.collection(reviewsCollection);
    this.counts = store.collection(reviewCountsCollection);
    this.done = store.collection(backfillsCollection);
  }

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    try {
      if (await this.done.findById('review-counts')) return;
      const moved = await this.backfill();
      await this.done.updateOne({ _id: 'review-counts' }, { $set: { at: new Date().toISOString() } }, { upsert: true });
      if (moved > 0) this.logger.info({ reviewCountsBackfill: { moved, ms: Date.now() - started } }, `Counts moved out of ${moved} older review(s)`);
    } catch (err) {
      this.logger.error({ err, reviewCountsBackfill: { ms: Date.now() - started } }, `Review counts backfill failed: ${(err as Error).message}`);
    }
  }

  /** Moves the counts of every review still holding them, `batch` at a time in id order; how many reviews were moved. */
  async backfill(batch = REVIEW_COUNTS_BACKFILL_BATCH): Promise<number> {
    let moved = 0;
    let after = '';
    for (;;) {
      const docs = await this.reviews.find(
        { _id: { $gt: after }, $or: [{ like_count: { $exists: true } }, { comment_count: { $exists: true } }] },
        { sort: { _id: 1 }, limit: batch, projection: { _id: 1, like_count: 1, comment_count: 1 } },
      );
      if (docs.length === 0) return moved;
      for (const doc of docs) await this.move(doc);
      moved += docs.length;
      after = docs[docs.length - 1]._id;
    }
  }

  private async move({ _id, like_count = 0, comment_count = 0 }: ReviewDoc): Promise<void> {
    if (like_count + comment_count > 0) {
      try {
        await this.counts.insert({ _id, like_count, comment_count });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    await this.reviews.updateOne({ _id }, { $unset: { like_count: true, comment_count: true } });
  }
}
