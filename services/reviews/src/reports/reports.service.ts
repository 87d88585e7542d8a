import { Inject, Injectable } from '@nestjs/common';
import { DUPLICATE_REPORT_MESSAGE } from '@app/contracts';
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

  async forgetReview(reviewId: string): Promise<void> {
    await this.reports.deleteMany({ review_id: reviewId });
  }
}
