import { Inject, Injectable } from '@nestjs/common';
import { DUPLICATE_REPORT_MESSAGE, ReportStatus } from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { ReviewsService } from '../reviews/reviews.service';
import { ReportDoc, reportsCollection } from './report.collection';
import { ReviewsException } from '../reviews.errors';

@Injectable()
export class ReportsService {
  private readonly reports: Collection<ReportDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reviews: ReviewsService,
  ) {
    this.reports = store.collection(reportsCollection);
  }

  /** One report per member per review: the unique (review, reporter) index decides, also under races. */
  async report(reporterId: string, reviewId: string, reason: string | null | undefined): Promise<void> {
    const review = await this.reviews.findVisible(reviewId, reporterId);
    if (review.user_id === reporterId) throw new ReviewsException('CANNOT_REPORT_OWN_REVIEW', 'You cannot report your own review');
    try {
      await this.reports.insert({
        review_id: reviewId,
        reporter_id: reporterId,
        review_author_id: review.user_id,
        reason: reason || null,
        status: 'open',
        created_at: new Date().toISOString(),
      });
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ReviewsException('ALREADY_REPORTED', DUPLICATE_REPORT_MESSAGE);
      throw err;
    }
  }

  /** Reports in a status, newest first (moderators' queue). */
  async page(status: ReportStatus, skip: number, limit: number): Promise<{ items: ReportDoc[]; total: number }> {
    const [items, total] = await Promise.all([
      this.reports.find({ status }, { sort: { created_at: -1 }, skip, limit }),
      this.reports.count({ status }),
    ]);
    return { items, total };
  }

  async findById(id: string): Promise<ReportDoc | null> {
    return this.reports.findById(id);
  }

  async decide(id: string, status: Exclude<ReportStatus, 'open'>, at: string): Promise<void> {
    await this.reports.updateOne({ _id: id }, { $set: { status, decided_at: at } });
  }

  /** Acting on a review settles every open report of it. */
  async decideOpenFor(reviewId: string, at: string): Promise<void> {
    await this.reports.updateMany({ review_id: reviewId, status: 'open' }, { $set: { status: 'actioned', decided_at: at } });
  }

  async forgetReview(reviewId: string): Promise<void> {
    await this.reports.deleteMany({ review_id: reviewId });
  }
}
