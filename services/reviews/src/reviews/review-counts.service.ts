import { Inject, Injectable } from '@nestjs/common';
import { Collection, CountedIn, Filter, STORE, Store } from '@app/store';
import { ReviewCounter, ReviewCountsDoc, reviewCountsCollection } from './review-counts.collection';

/** A review's like and comment counts (review-counts.collection.ts): moved one at a time, read a page at a time. */
@Injectable()
export class ReviewCounts {
  private readonly counts: Collection<ReviewCountsDoc>;

  constructor(@Inject(STORE) store: Store) {
    this.counts = store.collection(reviewCountsCollection);
  }

  /** Moves a counter by one and returns it; a decrement never takes it below 0. */
  async bump(reviewId: string, counter: ReviewCounter, delta: 1 | -1): Promise<number> {
    const filter: Filter = delta < 0 ? { _id: reviewId, [counter]: { $gte: 1 } } : { _id: reviewId };
    const moved = await this.counts.findOneAndUpdate(filter, { $inc: { [counter]: delta } }, { upsert: delta > 0 });
    return moved ? (moved[counter] ?? 0) : this.of(reviewId, counter);
  }

  /** Where a counter lives, for a write that moves it in the same statement (`Collection.flip`). */
  counted(reviewId: string, counter: ReviewCounter): CountedIn {
    return { collection: this.counts, id: reviewId, field: counter };
  }

  async of(reviewId: string, counter: ReviewCounter): Promise<number> {
    return (await this.counts.findById(reviewId))?.[counter] ?? 0;
  }

  /** The counts of a page's reviews, by id (by id alone: the document cache answers). */
  async for(reviewIds: string[]): Promise<Map<string, ReviewCountsDoc>> {
    if (reviewIds.length === 0) return new Map();
    const docs = await this.counts.find({ _id: { $in: reviewIds } });
    return new Map(docs.map((d) => [d._id, d]));
  }

  async forget(reviewId: string): Promise<void> {
    await this.counts.deleteOne({ _id: reviewId });
  }
}
