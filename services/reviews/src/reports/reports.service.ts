import { Inject, Injectable } from '@nestjs/common';
import { DUPLICATE_COMMENT_REPORT_MESSAGE, DUPLICATE_REPORT_MESSAGE, ReportStatus } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, DuplicateKeyError, Filter, newId, STORE, Store } from '@app/store';
import { CommentsService } from '../comments/comments.service';
import { SiteRolesReadModel } from '../read-models/site-roles.service';
import { ReviewsService } from '../reviews/reviews.service';
import { ReportDoc, reportsCollection } from './report.collection';
import { ReviewsException } from '../reviews.errors';

@Injectable()
export class ReportsService {
  private readonly reports: Collection<ReportDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reviews: ReviewsService,
    private readonly comments: CommentsService,
    private readonly roles: SiteRolesReadModel,
    private readonly bus: EventBus,
  ) {
    this.reports = store.collection(reportsCollection);
  }

  /** One report per member per review. */
  async report(reporterId: string, reviewId: string, reason: string | null | undefined): Promise<void> {
    const review = await this.reviews.findVisible(reviewId, reporterId);
    if (review.user_id === reporterId) throw new ReviewsException('CANNOT_REPORT_OWN_REVIEW', 'You cannot report your own review');
    await this.insertOnce({ review_id: reviewId, comment_id: '', reporter_id: reporterId, review_author_id: review.user_id, reason }, DUPLICATE_REPORT_MESSAGE);
  }

  /** One report per member per comment, in the same queue as review reports (issue 22 §3). */
  async reportComment(reporterId: string, commentId: string, reason: string | null | undefined): Promise<void> {
    const comment = await this.comments.findVisible(commentId, reporterId);
    if (comment.user_id === reporterId) throw new ReviewsException('CANNOT_REPORT_OWN_COMMENT', 'You cannot report your own comment');
    const row = { review_id: comment.review_id, comment_id: commentId, reporter_id: reporterId, review_author_id: comment.user_id, reason };
    await this.insertOnce(row, DUPLICATE_COMMENT_REPORT_MESSAGE);
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

  /** Acting on a review settles every open report of it (reports of its comments stay open). */
  async decideOpenFor(reviewId: string, at: string): Promise<void> {
    // Reports filed before comment reports existed carry no comment_id.
    await this.settle({ review_id: reviewId, comment_id: { $in: ['', null] } }, at);
  }

  /** Acting on a comment settles every open report of it. */
  async decideOpenForComment(commentId: string, at: string): Promise<void> {
    await this.settle({ comment_id: commentId }, at);
  }

  private async settle(filter: Filter, at: string): Promise<void> {
    await this.reports.updateMany({ ...filter, status: 'open' }, { $set: { status: 'actioned', decided_at: at } });
  }

  /** The staff's ids, for the events that change their open queue. */
  async staffIds(): Promise<string[]> {
    return (await this.roles.staff()).map((r) => r._id);
  }

  /** The unique (review, comment, reporter) index decides, also under races. Announced so open queues show it live. */
  private async insertOnce(row: Omit<ReportDoc, '_id' | 'status' | 'created_at' | 'reason'> & { reason: string | null | undefined }, duplicate: string): Promise<void> {
    const id = newId();
    try {
      await this.bus.emitWith(
        {
          type: 'moderation.report_filed',
          payload: { reportId: id, reviewId: row.review_id, commentId: row.comment_id || null, reporterId: row.reporter_id, staffIds: await this.staffIds() },
          key: row.review_id,
          actorId: row.reporter_id,
          proof: { collection: reportsCollection, match: { _id: id }, present: true },
        },
        () => this.reports.insert({ ...row, _id: id, reason: row.reason || null, status: 'open', created_at: new Date().toISOString() }),
      );
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ReviewsException('ALREADY_REPORTED', duplicate);
      throw err;
    }
  }

  async forgetReview(reviewId: string): Promise<void> {
    await this.reports.deleteMany({ review_id: reviewId });
  }
}
