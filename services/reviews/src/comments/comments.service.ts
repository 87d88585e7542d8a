import { Inject, Injectable } from '@nestjs/common';
import { CommentView } from '@app/contracts';
import { EventBus } from '@app/bus';
import { Collection, newId, STORE, Store } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { ReviewsService } from '../reviews/reviews.service';
import { UserCardsService } from '../users/user-cards.service';
import { COMMENT_NOT_HIDDEN, CommentDoc, commentsCollection } from './comment.collection';
import { ReviewsException } from '../reviews.errors';

const EXCERPT_LENGTH = 140;

@Injectable()
export class CommentsService {
  private readonly comments: Collection<CommentDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly reviews: ReviewsService,
    private readonly cards: UserCardsService,
    private readonly bus: EventBus,
    private readonly audience: AudienceService,
  ) {
    this.comments = store.collection(commentsCollection);
  }

  /**
   * Oldest first: a thread reads top to bottom. Comments by members blocked either way with the
   * viewer or muted by the viewer are left out (comment_count still counts them); comments a
   * moderator hid are left out for everyone and out of comment_count too.
   */
  async list(reviewId: string, viewerId: string, skip: number, limit: number): Promise<{ items: CommentView[]; total: number }> {
    await this.reviews.findVisible(reviewId, viewerId);
    const blocked = await this.audience.silencedFor(viewerId);
    const filter = { review_id: reviewId, ...COMMENT_NOT_HIDDEN, ...(blocked.length > 0 && { user_id: { $nin: blocked } }) };
    const [docs, total] = await Promise.all([
      this.comments.find(filter, { sort: { created_at: 1, _id: 1 }, skip, limit }),
      this.comments.count(filter),
    ]);
    return { items: await this.views(docs), total };
  }

  async create(userId: string, reviewId: string, content: string): Promise<CommentView> {
    const review = await this.reviews.findForInteraction(reviewId, userId);
    const doc: CommentDoc = { _id: newId(), review_id: reviewId, user_id: userId, content, created_at: new Date().toISOString() };
    const saved = await this.bus.emitWith(
      {
        type: 'comment.created',
        payload: { commentId: doc._id, reviewId, reviewAuthorId: review.user_id, userId, excerpt: content.slice(0, EXCERPT_LENGTH) },
        key: reviewId,
        actorId: userId,
        proof: { collection: commentsCollection, match: { _id: doc._id }, present: true },
      },
      () => this.insert(doc),
    );
    return (await this.views([saved]))[0];
  }

  /** By the comment's author only (the review's author may delete it, not reword it). */
  async update(userId: string, commentId: string, content: string): Promise<CommentView> {
    const doc = await this.comments.findById(commentId);
    if (!doc) throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    if (doc.user_id !== userId) throw new ReviewsException('NOT_COMMENT_AUTHOR', 'Only the author can edit this comment');
    const updated = await this.comments.findOneAndUpdate({ _id: commentId }, { $set: { content, edited_at: new Date().toISOString() } });
    // deleted between the read and the write
    if (!updated) throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    return (await this.views([updated]))[0];
  }

  /** By the comment's author or the review's author. */
  async remove(userId: string, commentId: string): Promise<void> {
    const doc = await this.comments.findById(commentId);
    if (!doc) throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    if (doc.user_id !== userId) {
      const review = await this.reviews.find(doc.review_id).catch(() => null);
      if (review?.user_id !== userId) throw new ReviewsException('NOT_COMMENT_AUTHOR', 'Only the comment or review author can delete this comment');
    }
    // A hidden comment is already out of comment_count.
    if ((await this.comments.deleteOne({ _id: commentId })) === 1 && !doc.hidden_at) {
      await this.reviews.bump(doc.review_id, 'comment_count', -1);
    }
  }

  /** A comment the viewer can see (its review visible to them, not hidden): what a member may report. */
  async findVisible(commentId: string, viewerId: string): Promise<CommentDoc> {
    const doc = await this.comments.findById(commentId);
    if (!doc || doc.hidden_at) throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    await this.reviews.findVisible(doc.review_id, viewerId).catch(() => {
      throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    });
    return doc;
  }

  async find(commentId: string): Promise<CommentDoc> {
    const doc = await this.comments.findById(commentId);
    if (!doc) throw new ReviewsException('COMMENT_NOT_FOUND', 'Comment not found');
    return doc;
  }

  async findManyForModeration(ids: string[]): Promise<CommentDoc[]> {
    return ids.length === 0 ? [] : this.comments.find({ _id: { $in: ids } });
  }

  /**
   * Hides a comment (since `hiddenAt`) or, with null, shows it again, moving it out of or back
   * into its review's comment_count only when its state changed, so a repeat changes nothing.
   */
  async setHidden(commentId: string, hiddenAt: string | null): Promise<void> {
    const changed = hiddenAt
      ? await this.comments.updateOne({ _id: commentId, ...COMMENT_NOT_HIDDEN }, { $set: { hidden_at: hiddenAt } })
      : await this.comments.updateOne({ _id: commentId, hidden_at: { $exists: true } }, { $unset: { hidden_at: true } });
    if (changed.matched === 1) {
      const doc = await this.find(commentId);
      await this.reviews.bump(doc.review_id, 'comment_count', hiddenAt ? -1 : 1);
    }
  }

  async forgetReview(reviewId: string): Promise<void> {
    await this.comments.deleteMany({ review_id: reviewId });
  }

  /** Stores the comment and counts it on its review. */
  private async insert(doc: CommentDoc): Promise<CommentDoc> {
    const saved = await this.comments.insert(doc);
    await this.reviews.bump(doc.review_id, 'comment_count', 1);
    return saved;
  }

  private async views(docs: CommentDoc[]): Promise<CommentView[]> {
    const cards = await this.cards.cardsFor(docs.map((d) => d.user_id));
    return docs.map((d) => ({
      id: d._id,
      reviewId: d.review_id,
      userId: d.user_id,
      content: d.content,
      createdAt: d.created_at,
      is_edited: d.edited_at !== undefined,
      edited_at: d.edited_at ?? null,
      user: cards.get(d.user_id)!,
    }));
  }
}
