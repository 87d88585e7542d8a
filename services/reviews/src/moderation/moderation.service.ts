import { Inject, Injectable } from '@nestjs/common';
import {
  EventPayloads,
  EventType,
  ModerationAction,
  ModerationLogEntryView,
  ModerationReportView,
  ReportStatus,
  SetRoleDto,
  SuspendMemberDto,
  UserCard,
} from '@app/contracts';
import { EventBus } from '@app/bus';
import { AuthenticatedUser } from '@app/platform';
import { Collection, newId, STORE, Store } from '@app/store';
import { CommentDoc } from '../comments/comment.collection';
import { CommentsService } from '../comments/comments.service';
import { SiteRolesReadModel } from '../read-models/site-roles.service';
import { ReportDoc } from '../reports/report.collection';
import { ReportsService } from '../reports/reports.service';
import { ReviewDoc } from '../reviews/review.collection';
import { ReviewsService } from '../reviews/reviews.service';
import { ReviewsException } from '../reviews.errors';
import { UserCardsService } from '../users/user-cards.service';
import { ModerationLogDoc, moderationLogCollection } from './moderation-log.collection';

const HOUR_MS = 3_600_000;
type LogInput = Omit<ModerationLogDoc, '_id' | 'created_at' | 'until' | 'role'> & Partial<Pick<ModerationLogDoc, 'until' | 'role'>>;

/**
 * Moderators' work on reports (issue 22 §3). Every action writes one moderation log row; the
 * ones other services act on (hide: notifications tells the author; suspend and role: auth) are
 * recorded with their event, the log row being the proof that the action happened.
 */
@Injectable()
export class ModerationService {
  private readonly log: Collection<ModerationLogDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reports: ReportsService,
    private readonly reviews: ReviewsService,
    private readonly comments: CommentsService,
    private readonly cards: UserCardsService,
    private readonly roles: SiteRolesReadModel,
    private readonly bus: EventBus,
  ) {
    this.log = store.collection(moderationLogCollection);
  }

  async reportPage(status: ReportStatus, skip: number, limit: number): Promise<{ items: ModerationReportView[]; total: number }> {
    const { items, total } = await this.reports.page(status, skip, limit);
    const reviews = new Map((await this.reviews.findManyForModeration(items.map((r) => r.review_id))).map((d) => [d._id, d]));
    const commentIds = items.flatMap((r) => (r.comment_id ? [r.comment_id] : []));
    const comments = new Map((await this.comments.findManyForModeration(commentIds)).map((d) => [d._id, d]));
    const authors = [...reviews.values()].map((d) => d.user_id);
    const cards = await this.cards.cardsFor([...items.flatMap((r) => [r.reporter_id, r.review_author_id]), ...authors]);
    return { items: items.map((r) => reportView(r, reviews.get(r.review_id), r.comment_id ? comments.get(r.comment_id) : undefined, cards)), total };
  }

  async dismiss(actor: AuthenticatedUser, reportId: string, reason: string): Promise<void> {
    const report = await this.reports.findById(reportId);
    if (!report) throw new ReviewsException('REPORT_NOT_FOUND', 'Report not found');
    const row = logRow({ action: 'dismiss', actor_id: actor.id, target_user_id: report.review_author_id, target_id: report._id, reason });
    const payload = { reportId: report._id, dismissedBy: actor.id, staffIds: await this.reports.staffIds() };
    await this.recorded('moderation.report_dismissed', payload, actor, row, () => this.reports.decide(report._id, 'dismissed', row.created_at));
  }

  /** Out of every listing, kept for moderators; its open reports are settled and its author told why. */
  async hideReview(actor: AuthenticatedUser, reviewId: string, reason: string): Promise<void> {
    const review = await this.reviews.find(reviewId);
    // Already hidden: no second log row, no second notice to the author.
    if (review.hidden_at) return;
    const row = logRow({ action: 'hide', actor_id: actor.id, target_user_id: review.user_id, target_id: review._id, reason });
    const hidden = { kind: 'review' as const, contentId: review._id, authorId: review.user_id, reason, staffIds: await this.reports.staffIds() };
    await this.recorded('moderation.content_hidden', hidden, actor, row, async () => {
      await this.reviews.setHidden(review._id, row.created_at);
      await this.reports.decideOpenFor(review._id, row.created_at);
    });
  }

  /** Back in every listing and count; the services counting the author's reviews hear it. */
  async unhideReview(actor: AuthenticatedUser, reviewId: string, reason: string): Promise<void> {
    const review = await this.reviews.find(reviewId);
    if (!review.hidden_at) return;
    const row = logRow({ action: 'unhide', actor_id: actor.id, target_user_id: review.user_id, target_id: review._id, reason });
    await this.recorded('moderation.content_shown', { kind: 'review', contentId: review._id, authorId: review.user_id }, actor, row, async () => {
      await this.reviews.setHidden(review._id, null);
    });
  }

  /** Out of every listing and of its review's comment_count; its open reports settled and its author told why. */
  async hideComment(actor: AuthenticatedUser, commentId: string, reason: string): Promise<void> {
    const comment = await this.comments.find(commentId);
    if (comment.hidden_at) return;
    const row = logRow({ action: 'hide_comment', actor_id: actor.id, target_user_id: comment.user_id, target_id: comment._id, reason });
    const hidden = { kind: 'comment' as const, contentId: comment._id, authorId: comment.user_id, reason, staffIds: await this.reports.staffIds() };
    await this.recorded('moderation.content_hidden', hidden, actor, row, async () => {
      await this.comments.setHidden(comment._id, row.created_at);
      await this.reports.decideOpenForComment(comment._id, row.created_at);
    });
  }

  async unhideComment(actor: AuthenticatedUser, commentId: string, reason: string): Promise<void> {
    const comment = await this.comments.find(commentId);
    if (!comment.hidden_at) return;
    const row = logRow({ action: 'unhide_comment', actor_id: actor.id, target_user_id: comment.user_id, target_id: comment._id, reason });
    await this.recorded('moderation.content_shown', { kind: 'comment', contentId: comment._id, authorId: comment.user_id }, actor, row, () => this.comments.setHidden(comment._id, null));
  }

  /** Moderators suspend members; only an admin suspends a moderator, and nobody an admin. */
  async suspend(actor: AuthenticatedUser, userId: string, dto: SuspendMemberDto): Promise<{ until: string }> {
    await this.assertTarget(actor, userId);
    const targetRole = await this.roles.roleOf(userId);
    if (targetRole === 'admin') throw new ReviewsException('ADMIN_ONLY', 'Admins cannot be suspended');
    if (targetRole === 'moderator' && actor.role !== 'admin') throw new ReviewsException('ADMIN_ONLY', 'Only admins can suspend a moderator');
    const until = new Date(Date.now() + dto.hours * HOUR_MS).toISOString();
    const row = logRow({ action: 'suspend', actor_id: actor.id, target_user_id: userId, target_id: userId, reason: dto.reason, until });
    await this.recorded('moderation.member_suspended', { userId, until, reason: dto.reason }, actor, row, async () => undefined);
    return { until };
  }

  /** Admins appoint and remove moderators; an admin's own role is not changed here. */
  async setRole(actor: AuthenticatedUser, userId: string, dto: SetRoleDto): Promise<void> {
    await this.assertTarget(actor, userId);
    if ((await this.roles.roleOf(userId)) === 'admin') throw new ReviewsException('ADMIN_ONLY', 'An admin’s role cannot be changed');
    const row = logRow({ action: 'role', actor_id: actor.id, target_user_id: userId, target_id: userId, reason: dto.reason, role: dto.role });
    await this.recorded('moderation.role_changed', { userId, role: dto.role }, actor, row, () => this.roles.set(userId, dto.role));
  }

  async staff(): Promise<{ user: UserCard; role: string }[]> {
    const rows = await this.roles.staff();
    const cards = await this.cards.cardsFor(rows.map((r) => r._id));
    return rows.map((r) => ({ user: cards.get(r._id) as UserCard, role: r.role }));
  }

  async logPage(skip: number, limit: number): Promise<{ items: ModerationLogEntryView[]; total: number }> {
    const [rows, total] = await Promise.all([this.log.find({}, { sort: { created_at: -1, _id: -1 }, skip, limit }), this.log.count({})]);
    const cards = await this.cards.cardsFor(rows.flatMap((r) => [r.actor_id, r.target_user_id]));
    return { items: rows.map((r) => logView(r, cards)), total };
  }

  private async assertTarget(actor: AuthenticatedUser, userId: string): Promise<void> {
    if (userId === actor.id) throw new ReviewsException('CANNOT_MODERATE_SELF', 'You cannot do this to your own account');
    if (!(await this.cards.card(userId))) throw new ReviewsException('MODERATION_TARGET_NOT_FOUND', 'Member not found');
  }

  /** The log row and `change` together with the event, so neither is lost without the other. */
  private async recorded<T extends EventType>(
    type: T,
    payload: EventPayloads[T],
    actor: AuthenticatedUser,
    row: ModerationLogDoc,
    change: () => Promise<void>,
  ): Promise<void> {
    await this.bus.emitWith(
      {
        type,
        payload,
        key: row.target_user_id,
        actorId: actor.id,
        proof: { collection: moderationLogCollection, match: { _id: row._id }, present: true },
        // A suspension and a role are in force on every route once the moderator's request returns.
        inForce: type === 'moderation.member_suspended' || type === 'moderation.role_changed',
      },
      // The change answers the row: a falsy answer would mean "nothing changed, no event".
      async () => {
        await change();
        return this.log.insert(row);
      },
    );
  }
}

function logRow(input: LogInput, at = new Date().toISOString()): ModerationLogDoc {
  return { _id: newId(), until: null, role: null, ...input, created_at: at };
}

function reportView(r: ReportDoc, review: ReviewDoc | undefined, comment: CommentDoc | undefined, cards: Map<string, UserCard>): ModerationReportView {
  return {
    id: r._id,
    kind: r.comment_id ? 'comment' : 'review',
    status: r.status,
    reason: r.reason,
    reporter: cards.get(r.reporter_id) as UserCard,
    created_at: r.created_at,
    review: review
      ? { id: review._id, title: review.title, content: review.content, hidden: Boolean(review.hidden_at), user: cards.get(review.user_id) as UserCard }
      : null,
    comment: comment
      ? { id: comment._id, review_id: comment.review_id, content: comment.content, hidden: Boolean(comment.hidden_at), user: cards.get(comment.user_id) as UserCard }
      : null,
  };
}

function logView(r: ModerationLogDoc, cards: Map<string, UserCard>): ModerationLogEntryView {
  return {
    id: r._id,
    action: r.action as ModerationAction,
    actor: cards.get(r.actor_id) as UserCard,
    target_user: cards.get(r.target_user_id) as UserCard,
    target_id: r.target_id,
    reason: r.reason,
    until: r.until,
    role: r.role,
    created_at: r.created_at,
  };
}
