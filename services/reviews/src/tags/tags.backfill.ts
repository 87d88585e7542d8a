import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import { parseTags } from '@app/contracts';
import { SERVICE_LOGGER } from '@app/platform';
import { Collection, defineCollection, STORE, Store } from '@app/store';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';

/** One row per boot-time backfill that has run to the end (`_id`: its name): later boots skip it. */
export const backfillsCollection = defineCollection<{ _id: string; at: string }>('backfills');

/** Reviews read (and written, all at once) per round: a flat memory use however many are stored. */
export const TAGS_BACKFILL_BATCH = 200;

/**
 * Boot-time backfill of `tags` (issue 21 §6) for reviews stored before tags were read from the
 * text, so their #words reach tag pages, followed-tag feeds and trending tags. Every review it
 * reads gets the field (`[]` when it has no tag), so a later boot finds nothing to do. Each write
 * is guarded on the field still being absent: an edit of the text meanwhile set it from the new
 * text, and wins. Like the counter repair it runs before the service serves, and a failure is
 * logged without stopping the service (the next boot carries on where this one stopped).
 * A run that reaches the end leaves a row in `backfills`, and a boot that finds it reads nothing:
 * every review written since carries its tags, and scanning them all on each boot cost ~90 ms at
 * 20,000 reviews here (issue 28 §5: boot on the full data set).
 */
@Injectable()
export class TagsBackfill implements OnApplicationBootstrap {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly done: Collection<{ _id: string; at: string }>;

  constructor(
    @Inject(STORE) store: Store,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.reviews = store.collection(reviewsCollection);
    this.done = store.collection(backfillsCollection);
  }

  async onApplicationBootstrap(): Promise<void> {
    const started = Date.now();
    try {
      if (await this.done.findById('tags')) return;
      const filled = await this.backfill();
      await this.done.updateOne({ _id: 'tags' }, { $set: { at: new Date().toISOString() } }, { upsert: true });
      if (filled > 0) this.logger.info({ tagsBackfill: { filled, ms: Date.now() - started } }, `Tags read for ${filled} older review(s)`);
    } catch (err) {
      this.logger.error({ err, tagsBackfill: { ms: Date.now() - started } }, `Tags backfill failed: ${(err as Error).message}`);
    }
  }

  /** Sets `tags` on every review lacking it, `batch` at a time in id order; how many were set. */
  async backfill(batch = TAGS_BACKFILL_BATCH): Promise<number> {
    let filled = 0;
    // Paging by id, not by "still absent", so a review whose write lost to an edit is not read again.
    let after = '';
    for (;;) {
      const docs = await this.reviews.find(
        { _id: { $gt: after }, tags: { $exists: false } },
        { sort: { _id: 1 }, limit: batch, projection: { _id: 1, content: 1 } },
      );
      if (docs.length === 0) return filled;
      const results = await Promise.all(
        docs.map((d) => this.reviews.updateOne({ _id: d._id, tags: { $exists: false } }, { $set: { tags: parseTags(d.content ?? '') } })),
      );
      filled += results.filter((r) => r.matched > 0).length;
      after = docs[docs.length - 1]._id;
    }
  }
}
