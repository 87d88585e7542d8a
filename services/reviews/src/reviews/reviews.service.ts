import { HttpException, Inject, Injectable } from '@nestjs/common';
import {
  CreateReviewDto,
  DUPLICATE_REVIEW_MESSAGE,
  parseTags,
  ReviewQueryDto,
  ReviewSort,
  ReviewVersionView,
  ReviewView,
  UpdateReviewDto,
} from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { Collection, DuplicateKeyError, Filter, newId, SortSpec, STORE, Store, Update } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { KeywordFilterService } from '../filters/keyword-filter.service';
import { ProductDoc } from '../products/product.collection';
import { ProductsService } from '../products/products.service';
import { ReviewDoc, reviewsCollection } from './review.collection';
import { ReviewPresenter } from './review-presenter';
import { ReviewCounter } from './review-counts.collection';
import { ReviewCounts } from './review-counts.service';
import { ReviewVersionDoc, reviewVersionsCollection } from './review-version.collection';
import { ReviewsException } from '../reviews.errors';

const EXCERPT_LENGTH = 140;
/** A concurrent edit of the same review changed the rating under us: read again and retry. */
const EDIT_ATTEMPTS = 5;

/** Ties on rating fall back to newest first, then id, so pages never overlap. */
const SORTS: Record<ReviewSort, SortSpec> = {
  recent: { created_at: -1, _id: -1 },
  rating_desc: { rating: -1, created_at: -1, _id: -1 },
  rating_asc: { rating: 1, created_at: -1, _id: -1 },
};

/** Fields an edit sets besides those sent: the tags follow the text, and new images drop the old descriptions. */
function derivedOnEdit(dto: UpdateReviewDto): Partial<ReviewDoc> {
  return {
    ...(dto.content !== undefined && { tags: parseTags(dto.content) }),
    ...(dto.images !== undefined && dto.image_alts === undefined && { image_alts: [] }),
  };
}


/** Reviews a moderator hid are left out of every listing. */
const NOT_HIDDEN: Filter = { hidden_at: { $exists: false } };

@Injectable()
export class ReviewsService {
  private readonly reviews: Collection<ReviewDoc>;
  private readonly versions: Collection<ReviewVersionDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly products: ProductsService,
    private readonly presenter: ReviewPresenter,
    private readonly bus: EventBus,
    private readonly audience: AudienceService,
    private readonly keywordFilters: KeywordFilterService,
    private readonly counts: ReviewCounts,
  ) {
    this.reviews = store.collection(reviewsCollection);
    this.versions = store.collection(reviewVersionsCollection);
  }

  async create(userId: string, dto: CreateReviewDto): Promise<ReviewView> {
    return this.view(await this.write(userId, dto), userId);
  }

  /** The rules and the write of a new review with its review.created (a request's, or an imported row's). */
  async write(userId: string, dto: CreateReviewDto): Promise<ReviewDoc> {
    const product = dto.product_id ? await this.products.findById(dto.product_id) : null;
    if (dto.product_id && !product) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
    if (product && (await this.reviews.findOne({ product_key: `${userId}:${product._id}` }))) {
      throw new ReviewsException('ALREADY_REVIEWED', DUPLICATE_REVIEW_MESSAGE);
    }
    const doc = this.draft(userId, dto, product);
    return this.bus.emitWith(created(doc, product), () => this.insert(doc));
  }

  /**
   * `write` for many reviews at once (the import), review by review in order with its rules and
   * replies: one read each of the products and of the reviews their authors already wrote of
   * them, one insert of the reviews with one of their events, one update of the products'
   * aggregates, each by its own amounts. A review another writer stored meanwhile fails the insert
   * with a duplicate key, and the caller goes review by review.
   */
  async writeMany(entries: readonly { userId: string; dto: CreateReviewDto }[]): Promise<(ReviewDoc | HttpException)[]> {
    const products = await this.products.cardsFor(entries.flatMap(({ dto }) => (dto.product_id ? [dto.product_id] : [])));
    const keys = entries.flatMap(({ userId, dto }) => (dto.product_id && products.has(dto.product_id) ? [`${userId}:${dto.product_id}`] : []));
    const reviewed = new Set(keys.length ? (await this.reviews.find({ product_key: { $in: [...new Set(keys)] } }, { projection: { product_key: 1 } })).map((r) => r.product_key) : []);
    const docs: ReviewDoc[] = [];
    const events: PlannedEvent<'review.created'>[] = [];
    const outcomes = entries.map(({ userId, dto }): ReviewDoc | HttpException => {
      const product = dto.product_id ? products.get(dto.product_id) : null;
      if (product === undefined) return new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
      const doc = this.draft(userId, dto, product);
      if (doc.product_key !== undefined) {
        if (reviewed.has(doc.product_key)) return new ReviewsException('ALREADY_REVIEWED', DUPLICATE_REVIEW_MESSAGE);
        reviewed.add(doc.product_key);
      }
      docs.push(doc);
      events.push(created(doc, product));
      return doc;
    });
    if (docs.length === 0) return outcomes;
    await this.bus.emitAllWith(events, async () => {
      const stored = await this.reviews.insertMany(docs);
      await this.products.addRatings(docs.flatMap((d) => (d.product_id && d.rating !== null ? [{ productId: d.product_id, rating: d.rating }] : [])));
      return stored;
    });
    return outcomes;
  }

  /**
   * Only what the viewer may see: one hidden author's list is empty, other lists leave hidden and
   * muted authors out (one muted author's own list still shows, as on Mastodon).
   */
  async list(query: ReviewQueryDto, skip: number, limit: number, viewerId: string) {
    const filter: Filter = { ...NOT_HIDDEN };
    if (query.userId) {
      if (!(await this.audience.canSee(viewerId, query.userId))) return { items: [], total: 0 };
      filter.user_id = query.userId;
    } else {
      const hidden = await this.audience.hiddenInLists(viewerId);
      if (hidden.length > 0) filter.user_id = { $nin: hidden };
    }
    if (query.productId) filter.product_id = query.productId;
    const [docs, total] = await Promise.all([
      this.reviews.find(filter, { sort: SORTS[query.sort ?? 'recent'], skip, limit }),
      this.reviews.count(filter),
    ]);
    return { items: await this.keywordFilters.visibleFor(viewerId, await this.presenter.present(docs, viewerId)), total };
  }

  async get(id: string, viewerId: string): Promise<ReviewView> {
    return this.view(await this.findVisible(id, viewerId), viewerId);
  }

  /** Earlier versions, newest first, under the GET /reviews/:id rule (404 when the viewer may not see it). */
  async history(id: string, viewerId: string, skip: number, limit: number): Promise<{ items: ReviewVersionView[]; total: number }> {
    await this.findVisible(id, viewerId);
    const [docs, total] = await Promise.all([
      this.versions.find({ review_id: id }, { sort: { version: -1 }, skip, limit }),
      this.versions.count({ review_id: id }),
    ]);
    return {
      items: docs.map(({ version, content, rating, title, has_spoilers, written_at, edited_at }) => ({
        version,
        content,
        rating,
        title,
        has_spoilers,
        written_at,
        edited_at,
      })),
      total,
    };
  }

  /** A review to like or comment on: 403 across a block, 404 when hidden otherwise. */
  async findForInteraction(id: string, userId: string): Promise<ReviewDoc> {
    const doc = await this.find(id);
    if (await this.audience.isBlockedEitherWay(userId, doc.user_id)) {
      throw new ReviewsException('USER_BLOCKED', 'You cannot interact with this user');
    }
    return this.visibleOrNotFound(doc, userId);
  }

  /** A review the viewer may not see answers as if it did not exist. */
  async findVisible(id: string, viewerId: string): Promise<ReviewDoc> {
    return this.visibleOrNotFound(await this.find(id), viewerId);
  }

  private async visibleOrNotFound(doc: ReviewDoc, viewerId: string): Promise<ReviewDoc> {
    if (doc.hidden_at || !(await this.audience.canSee(viewerId, doc.user_id))) throw new ReviewsException('REVIEW_NOT_FOUND', 'Review not found');
    return doc;
  }

  async find(id: string): Promise<ReviewDoc> {
    const doc = await this.reviews.findById(id);
    if (!doc) throw new ReviewsException('REVIEW_NOT_FOUND', 'Review not found');
    return doc;
  }

  async update(userId: string, id: string, dto: UpdateReviewDto): Promise<ReviewView> {
    for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
      const current = await this.find(id);
      if (current.user_id !== userId) throw new ReviewsException('NOT_REVIEW_AUTHOR', 'Only the author can edit this review');
      const fields = { ...Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined)), ...derivedOnEdit(dto) };
      const tags = dto.content === undefined ? (current.tags ?? []) : parseTags(dto.content);
      // Fresh per attempt: the proof that this edit, not an earlier one, is stored.
      const updatedAt = new Date().toISOString();
      const rating = dto.rating === undefined ? current.rating : dto.rating;
      const updated = await this.bus.emitWith(
        {
          type: 'review.updated',
          payload: { reviewId: id, authorId: userId, productId: current.product_id, rating, tags },
          key: id,
          actorId: userId,
          proof: { collection: reviewsCollection, match: { _id: id, updated_at: updatedAt }, present: true },
        },
        () => this.edit(current, { ...fields, edited: true, updated_at: updatedAt }),
      );
      if (!updated) continue;
      return this.view(updated, userId);
    }
    throw new ReviewsException('REVIEW_CHANGED', 'The review changed while saving; please try again');
  }

  async remove(userId: string, id: string): Promise<void> {
    const doc = await this.find(id);
    if (doc.user_id !== userId) throw new ReviewsException('NOT_REVIEW_AUTHOR', 'Only the author can delete this review');
    await this.bus.emitWith(
      {
        type: 'review.deleted',
        payload: { reviewId: id, authorId: userId, productId: doc.product_id },
        key: id,
        actorId: userId,
        proof: { collection: reviewsCollection, match: { _id: id }, present: false },
      },
      () => this.delete(doc),
    );
  }

  /** Moves a counter of a review by one and returns it; a decrement never takes it below 0. */
  bump(id: string, counter: ReviewCounter, delta: 1 | -1): Promise<number> {
    return this.counts.bump(id, counter, delta);
  }

  /** A counter of an existing review (404 otherwise). */
  async countOf(id: string, counter: ReviewCounter): Promise<number> {
    await this.find(id);
    return this.counts.of(id, counter);
  }

  /** Ids and times of an author's newest reviews (timelines, at most `limit`). */
  async recentByAuthors(authorIds: string[], limit: number): Promise<ReviewDoc[]> {
    if (authorIds.length === 0) return [];
    return this.reviews.find(
      { user_id: { $in: authorIds }, ...NOT_HIDDEN },
      { sort: { created_at: -1, _id: -1 }, limit, projection: { _id: 1, user_id: 1, created_at: 1 } },
    );
  }

  async countByAuthors(authorIds: string[]): Promise<number> {
    return authorIds.length === 0 ? 0 : this.reviews.count({ user_id: { $in: authorIds }, ...NOT_HIDDEN });
  }

  /**
   * Of these review ids, those a list built from other rows (saved items) must leave out, so that
   * they take no place on its pages nor in its total: reviews gone or hidden by a moderator, and
   * those the viewer may not see (the GET /reviews/:id rule: a block either way, or a restricted
   * author the viewer does not follow) or whose author the viewer muted.
   */
  async unlistedAmong(ids: string[], viewerId: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const hidden = await this.audience.hiddenInLists(viewerId);
    const shown = await this.reviews.find(
      { _id: { $in: ids }, ...NOT_HIDDEN, ...(hidden.length > 0 && { user_id: { $nin: hidden } }) },
      { projection: { _id: 1 } },
    );
    const listed = new Set(shown.map((d) => d._id));
    return ids.filter((id) => !listed.has(id));
  }

  async findMany(ids: string[]): Promise<ReviewDoc[]> {
    if (ids.length === 0) return [];
    // By id alone (the store's document cache answers that), the hidden ones left out here.
    const docs = await this.reviews.find({ _id: { $in: ids } });
    const byId = new Map(docs.filter((d) => d.hidden_at === undefined).map((d) => [d._id, d]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Any reviews by id, hidden ones included: what moderators look at. */
  async findManyForModeration(ids: string[]): Promise<ReviewDoc[]> {
    return ids.length === 0 ? [] : this.reviews.find({ _id: { $in: ids } });
  }

  /**
   * Hides a review (since `hiddenAt`) or, with null, shows it again. A hidden review leaves its
   * product's count and average at once, as a deleted one does; only the write that really
   * changed the state moves them. Whether it changed is the answer.
   */
  async setHidden(id: string, hiddenAt: string | null): Promise<boolean> {
    const filter: Filter = { _id: id, hidden_at: { $exists: !hiddenAt } };
    const update: Update = hiddenAt ? { $set: { hidden_at: hiddenAt } } : { $unset: { hidden_at: true } };
    const doc = await this.reviews.findOneAndUpdate(filter, update);
    if (!doc) return false;
    if (doc.product_id && doc.rating !== null) await this.products.applyRating(doc.product_id, hiddenAt ? -doc.rating : doc.rating, hiddenAt ? -1 : 1);
    return true;
  }

  /**
   * One page of a tag's reviews, newest first, under the feed's rules: authors the viewer may not
   * see (blocks either way, private accounts not followed) and muted ones are left out.
   */
  async tagged(tag: string, viewerId: string, skip: number, limit: number): Promise<{ items: ReviewView[]; total: number }> {
    const filter = await this.taggedFilter([tag], viewerId, []);
    const [docs, total] = await Promise.all([
      this.reviews.find(filter, { sort: SORTS.recent, skip, limit }),
      this.reviews.count(filter),
    ]);
    return { items: await this.keywordFilters.visibleFor(viewerId, await this.presenter.present(docs, viewerId)), total };
  }

  /** The newest reviews carrying any of these tags that the viewer may see, except by `except` authors (the feed merge). */
  async recentTagged(tags: string[], viewerId: string, except: string[], limit: number): Promise<{ docs: ReviewDoc[]; total: number }> {
    if (tags.length === 0) return { docs: [], total: 0 };
    const filter = await this.taggedFilter(tags, viewerId, except);
    const [docs, total] = await Promise.all([
      this.reviews.find(filter, { sort: SORTS.recent, limit, projection: { _id: 1, user_id: 1, created_at: 1 } }),
      this.reviews.count(filter),
    ]);
    return { docs, total };
  }

  private async taggedFilter(tags: string[], viewerId: string, except: string[]): Promise<Filter> {
    const hidden = await this.audience.hiddenInLists(viewerId);
    const left = [...hidden, ...except];
    return { tags: { $in: tags }, ...NOT_HIDDEN, ...(left.length > 0 && { user_id: { $nin: left } }) };
  }

  /** Tags of the reviews since a time (trending tags). */
  async tagsSince(since: string): Promise<Pick<ReviewDoc, 'tags' | 'created_at'>[]> {
    return this.reviews.find({ created_at: { $gte: since }, tags: { $exists: true }, ...NOT_HIDDEN }, { projection: { tags: 1, created_at: 1 } });
  }

  /** Reviews with a product category since a time (trending topics). */
  async categorisedSince(since: string): Promise<Pick<ReviewDoc, 'product_category' | 'created_at'>[]> {
    return this.reviews.find(
      { created_at: { $gte: since }, product_category: { $ne: null }, ...NOT_HIDDEN },
      { projection: { product_category: 1, created_at: 1 } },
    );
  }

  present(docs: ReviewDoc[], viewerId: string | null): Promise<ReviewView[]> {
    return this.presenter.present(docs, viewerId);
  }

  private async view(doc: ReviewDoc, viewerId: string | null): Promise<ReviewView> {
    return (await this.presenter.present([doc], viewerId))[0];
  }

  /** The new review, id and all, so its event can be recorded before it is stored. */
  private draft(userId: string, dto: CreateReviewDto, product: ProductDoc | null): ReviewDoc {
    const now = new Date().toISOString();
    return {
      _id: newId(),
      user_id: userId,
      product_id: product?._id ?? null,
      ...(product && { product_key: `${userId}:${product._id}` }),
      product_category: product?.category ?? null,
      rating: dto.rating ?? null,
      // The composer sends the product name as the title (spec part 1 §3).
      title: dto.title ?? product?.name ?? '',
      content: dto.content,
      images: dto.images ?? [],
      image_alts: dto.image_alts ?? [],
      tags: parseTags(dto.content),
      location: dto.location ?? null,
      date: dto.date ?? null,
      edited: false,
      has_spoilers: dto.has_spoilers ?? false,
      edit_count: 0,
      created_at: now,
      updated_at: now,
    };
  }

  /** Stores the review and adds its rating to the product's aggregate. */
  private async insert(doc: ReviewDoc): Promise<ReviewDoc> {
    let saved: ReviewDoc;
    try {
      saved = await this.reviews.insert(doc);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new ReviewsException('ALREADY_REVIEWED', DUPLICATE_REVIEW_MESSAGE);
      throw err;
    }
    if (saved.product_id && saved.rating !== null) await this.products.applyRating(saved.product_id, saved.rating, 1);
    return saved;
  }

  /**
   * Guarded on the rating and the edit time we read, so the aggregate moves by exactly the delta
   * we apply and the version kept is exactly the one replaced. Null when a concurrent edit won.
   */
  private async edit(current: ReviewDoc, set: Record<string, unknown> & { updated_at: string }): Promise<ReviewDoc | null> {
    const updated = await this.reviews.findOneAndUpdate(
      { _id: current._id, rating: current.rating, updated_at: current.updated_at },
      { $set: set, $inc: { edit_count: 1 } },
    );
    if (!updated) return null;
    // a hidden review is not in its product's aggregate: its edits leave it alone
    if (updated.product_id && current.rating !== null && updated.rating !== null && !updated.hidden_at) {
      await this.products.applyRating(updated.product_id, updated.rating - current.rating, 0);
    }
    await this.keepVersion(current, set.updated_at);
    return updated;
  }

  /** The replaced version; a retried edit finds it stored already. */
  private async keepVersion(previous: ReviewDoc, editedAt: string): Promise<void> {
    const version = (previous.edit_count ?? 0) + 1;
    try {
      await this.versions.insert({
        _id: `${previous._id}:${version}`,
        review_id: previous._id,
        version,
        content: previous.content,
        rating: previous.rating,
        title: previous.title,
        has_spoilers: previous.has_spoilers ?? false,
        written_at: previous.updated_at,
        edited_at: editedAt,
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Only the request that actually removed the row moves the aggregate: 0 when another did. */
  private async delete(doc: ReviewDoc): Promise<number> {
    const removed = await this.reviews.deleteOne({ _id: doc._id, user_id: doc.user_id });
    if (removed > 0 && doc.product_id && doc.rating !== null && !doc.hidden_at) {
      await this.products.applyRating(doc.product_id, -doc.rating, -1);
    }
    // Its history and counts go with it: nobody may see the review any more.
    if (removed > 0) {
      await this.versions.deleteMany({ review_id: doc._id });
      await this.counts.forget(doc._id);
    }
    return removed;
  }
}

/** A new review's review.created. */
function created(doc: ReviewDoc, product: ProductDoc | null): PlannedEvent<'review.created'> {
  return {
    type: 'review.created',
    payload: {
      reviewId: doc._id,
      authorId: doc.user_id,
      productId: doc.product_id,
      productName: product?.name ?? null,
      rating: doc.rating,
      title: doc.title,
      excerpt: doc.content.slice(0, EXCERPT_LENGTH),
      created_at: doc.created_at,
      tags: doc.tags,
    },
    key: doc._id,
    actorId: doc.user_id,
    proof: { collection: reviewsCollection, match: { _id: doc._id }, present: true },
  };
}
