import { Inject, Injectable } from '@nestjs/common';
import { CreateProductDto, LikeStatus, ProductCard, ProductQueryDto, ProductView, UpdateProductDto } from '@app/contracts';
import { EventBus, PlannedEvent } from '@app/bus';
import { Collection, DuplicateKeyError, Filter, newId, STORE, Store } from '@app/store';
import { LikeLedger } from '../likes/like-ledger';
import { ViewerContextService } from '../audience/viewer-context.service';
import { UserCardsService } from '../users/user-cards.service';
import { ProductDoc, productsCollection, productSearchKey } from './product.collection';
import { ProductLikeDoc, productLikesCollection } from './product-like.collection';
import { SavedDoc, savedCollection } from '../saved/saved.collection';
import { CatalogueSearchService } from './catalogue-search.service';
import { slugCandidate, slugify } from './slug';
import { ReviewsException } from '../reviews.errors';

const SLUG_ATTEMPTS = 20;

/** Exact average of the current reviews, rounded for display to 2 decimals. */
export function averageRating(sum: number, count: number): number {
  return count > 0 ? Math.round((sum / count) * 100) / 100 : 0;
}

export function toProductCard(doc: ProductDoc): ProductCard {
  return { id: doc._id, slug: doc.slug, name: doc.name, image_url: doc.image, image_alt: doc.image_alt || null, category: doc.category };
}

@Injectable()
export class ProductsService {
  private readonly products: Collection<ProductDoc>;
  private readonly likes: LikeLedger<ProductLikeDoc>;
  private readonly saved: Collection<SavedDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly cards: UserCardsService,
    private readonly bus: EventBus,
    private readonly catalogue: CatalogueSearchService,
    private readonly contexts: ViewerContextService,
  ) {
    this.products = store.collection(productsCollection);
    this.saved = store.collection(savedCollection);
    this.likes = new LikeLedger(
      store.collection(productLikesCollection),
      'product_id',
      {
        likeCount: async (id) => (await this.findByIdOr404(id)).like_count ?? 0,
        bump: (id, delta) => this.bumpLikes(id, delta),
      },
      (productId, userId) => ({ product_id: productId, user_id: userId, created_at: new Date().toISOString() }),
    );
  }

  async list(
    query: ProductQueryDto,
    skip: number,
    limit: number,
    viewerId: string,
  ): Promise<{ items: ProductView[]; total: number }> {
    const filter: Filter = {};
    if (query.category && query.category !== 'All') filter.category = query.category;
    if (query.search) return this.searchPage(filter, query.search, skip, limit, viewerId);
    const [docs, total] = await Promise.all([
      this.products.find(filter, { sort: { created_at: -1 }, skip, limit }),
      this.products.count(filter),
    ]);
    return { items: await this.views(docs, viewerId), total };
  }

  /**
   * A substring search tests every product's search key, which no index can narrow. The page's ids
   * come from the keys in memory (CatalogueSearchService) or, when those are not kept, from an
   * index that holds the order and the key (created_at, _id, search key: no document read,
   * nothing sorted); the documents from the document cache. Ties on created_at go by _id: the
   * insertion order the unfiltered list gives them, as ids are made in time order.
   */
  private async searchPage(
    filter: Filter,
    search: string,
    skip: number,
    limit: number,
    viewerId: string,
  ): Promise<{ items: ProductView[]; total: number }> {
    const category = filter.category as string | undefined;
    const { ids, total } = (await this.catalogue.page(search, category, skip, limit)) ?? (await this.searchStore(filter, search, skip, limit));
    const byId = await this.cardsFor(ids);
    // A product deleted between the two reads is left out.
    const docs = ids.map((id) => byId.get(id)).filter((d): d is ProductDoc => d !== undefined);
    return { items: await this.views(docs, viewerId), total };
  }

  private async searchStore(filter: Filter, search: string, skip: number, limit: number): Promise<{ ids: string[]; total: number }> {
    const searched: Filter = { ...filter, ...productSearchKey.matching(search) };
    const page = await this.products.find(searched, { sort: { created_at: -1, _id: 1 }, skip, limit, projection: { _id: 1 } });
    // A page that is not full and not past the end says the total itself (most searches): no count.
    const total = page.length < limit && (page.length > 0 || skip === 0) ? skip + page.length : await this.products.count(searched);
    return { ids: page.map((d) => d._id), total };
  }

  /** By id or by slug (ARCHITECTURE §4). */
  async get(idOrSlug: string, viewerId: string): Promise<ProductView> {
    const [view] = await this.views([await this.find(idOrSlug)], viewerId);
    return view;
  }

  async find(idOrSlug: string): Promise<ProductDoc> {
    const doc = (await this.products.findById(idOrSlug)) ?? (await this.products.findOne({ slug: idOrSlug.toLowerCase() }));
    if (!doc) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
    return doc;
  }

  async findById(id: string): Promise<ProductDoc | null> {
    return this.products.findById(id);
  }

  async create(userId: string, dto: CreateProductDto): Promise<ProductView> {
    return (await this.views([await this.add(userId, dto)], userId))[0];
  }

  /** A new product under a free slug with its product.created (a request's, or an imported row's). */
  add(userId: string, dto: CreateProductDto): Promise<ProductDoc> {
    return this.insertWithFreeSlug(userId, dto);
  }

  async update(userId: string, id: string, dto: UpdateProductDto): Promise<ProductView> {
    const before = await this.ownedBy(userId, id);
    const fields = Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined));
    const doc = await this.catalogue.changing(async () => {
      const updated = await this.products.findOneAndUpdate(
        { _id: id },
        { $set: { ...fields, search_key: productSearchKey.of({ ...before, ...fields }), updated_at: new Date().toISOString() } },
      );
      if (!updated) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
      await productSearchKey.settle(this.products, updated);
      return updated;
    });
    return (await this.views([doc], userId))[0];
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.ownedBy(userId, id);
    await this.catalogue.changing(() => this.products.deleteOne({ _id: id }));
    await this.likes.forget(id);
  }

  /** The product card's Like button: exact under concurrency like review likes. The member's liked products are part of their viewer context. */
  async toggleLike(userId: string, productId: string): Promise<LikeStatus> {
    await this.findByIdOr404(productId);
    const status = await this.likes.toggle(productId, userId);
    await this.contexts.touch(userId);
    return status;
  }

  likeStatus(userId: string, productId: string) {
    return this.likes.status(productId, userId);
  }

  /**
   * Moves the exact rating aggregate by a review's arrival (+1), edit (0) or removal (-1).
   * A removal only applies while the count is positive, so the counters never go below 0.
   */
  async applyRating(productId: string, sumDelta: number, countDelta: -1 | 0 | 1): Promise<void> {
    if (sumDelta === 0 && countDelta === 0) return;
    const filter: Filter = countDelta < 0 ? { _id: productId, review_count: { $gte: 1 } } : { _id: productId };
    await this.products.updateOne(filter, { $inc: { rating_sum: sumDelta, review_count: countDelta } });
  }

  /**
   * The arrival of many reviews' ratings (a batch of reviews): each product's aggregate moves by
   * the sum of its new ratings and their count, all in one update.
   */
  async addRatings(ratings: readonly { productId: string; rating: number }[]): Promise<void> {
    const totals = new Map<string, { sum: number; count: number }>();
    for (const { productId, rating } of ratings) {
      const total = totals.get(productId) ?? { sum: 0, count: 0 };
      totals.set(productId, { sum: total.sum + rating, count: total.count + 1 });
    }
    await this.products.incrementEach([...totals].map(([id, { sum, count }]) => ({ id, inc: { rating_sum: sum, review_count: count } })));
  }

  async cardsFor(ids: readonly string[]): Promise<Map<string, ProductDoc>> {
    const unique = [...new Set(ids)];
    const docs = unique.length ? await this.products.find({ _id: { $in: unique } }) : [];
    return new Map(docs.map((d) => [d._id, d]));
  }

  async views(docs: ProductDoc[], viewerId: string): Promise<ProductView[]> {
    const [cards, liked, saved] = await Promise.all([
      this.cards.cardsFor(docs.map((d) => d.user_id)),
      this.likedBy(viewerId),
      this.savedBy(viewerId, docs.map((d) => d._id)),
    ]);
    return docs.map((d) => {
      const card = cards.get(d.user_id)!;
      return {
        id: d._id,
        slug: d.slug,
        name: d.name,
        brand: d.brand,
        description: d.description,
        price: d.price,
        category: d.category,
        features: d.features,
        image: d.image,
        image_alt: d.image_alt || null,
        rating: averageRating(d.rating_sum, d.review_count),
        review_count: d.review_count,
        like_count: d.like_count ?? 0,
        liked: liked.has(d._id),
        saved: saved.has(d._id),
        userId: d.user_id,
        user: { ...card, name: card.display_name },
        createdAt: d.created_at,
        updatedAt: d.updated_at,
      };
    });
  }

  /** Which of these products the viewer saved (the saved rows, read by their unique key: whole, so the document cache answers, absent ones too). */
  private async savedBy(viewerId: string, ids: string[]): Promise<ReadonlySet<string>> {
    if (!viewerId || ids.length === 0) return new Set();
    const rows = await this.saved.find({ user_id: viewerId, kind: 'product', item_id: { $in: ids } });
    return new Set(rows.map((r) => r.item_id));
  }

  private async likedBy(viewerId: string): Promise<ReadonlySet<string>> {
    return viewerId ? (await this.contexts.of(viewerId)).context.likedProducts : new Set();
  }

  private async findByIdOr404(id: string): Promise<ProductDoc> {
    const doc = await this.products.findById(id);
    if (!doc) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
    return doc;
  }

  /** A decrement never takes it below 0. */
  private async bumpLikes(id: string, delta: 1 | -1): Promise<number> {
    const filter: Filter = delta < 0 ? { _id: id, like_count: { $gte: 1 } } : { _id: id };
    const doc = (await this.products.findOneAndUpdate(filter, { $inc: { like_count: delta } })) ?? (await this.products.findById(id));
    return doc?.like_count ?? 0;
  }

  private async ownedBy(userId: string, id: string): Promise<ProductDoc> {
    const doc = await this.products.findById(id);
    if (!doc) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
    if (doc.user_id !== userId) throw new ReviewsException('NOT_PRODUCT_CREATOR', 'Only the creator can change this product');
    return doc;
  }

  /**
   * `add` for many products at once (the import): each under its name's plain slug, in one insert
   * with one of their events. A slug taken already, or twice in the batch, fails the insert with a
   * duplicate key, and the caller goes product by product (`add` finds those a free slug).
   */
  addMany(entries: readonly { userId: string; dto: CreateProductDto }[]): Promise<ProductDoc[]> {
    const docs = entries.map(({ userId, dto }) => ({ ...draft(userId, dto), _id: newId(), slug: slugify(dto.name) }));
    if (docs.length === 0) return Promise.resolve([]);
    return this.bus.emitAllWith(docs.map(created), () => this.catalogue.changing(() => this.products.insertMany(docs)));
  }

  private async insertWithFreeSlug(userId: string, dto: CreateProductDto): Promise<ProductDoc> {
    const base = slugify(dto.name);
    const fields = draft(userId, dto);
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const slug = attempt < SLUG_ATTEMPTS - 1 ? slugCandidate(base, attempt) : `${base}-${newId().slice(-6)}`;
      try {
        return await this.insertAnnounced({ ...fields, _id: newId(), slug });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    throw new Error('No free slug found');
  }

  /** One insert attempt with its product.created: the event carries this attempt's slug, so a taken one drops it. */
  private insertAnnounced(doc: ProductDoc): Promise<ProductDoc> {
    return this.bus.emitWith(created(doc), () => this.catalogue.changing(() => this.products.insert(doc)));
  }
}

/** A new product's fields but its id and slug. */
function draft(userId: string, dto: CreateProductDto): Omit<ProductDoc, '_id' | 'slug'> {
  const now = new Date().toISOString();
  const description = dto.description ?? '';
  return {
    name: dto.name,
    brand: dto.brand ?? '',
    description,
    price: dto.price ?? 0,
    category: dto.category,
    features: dto.features ?? [],
    image: dto.image ?? null,
    image_alt: dto.image_alt || null,
    user_id: userId,
    rating_sum: 0,
    review_count: 0,
    like_count: 0,
    created_at: now,
    updated_at: now,
    search_key: productSearchKey.of({ name: dto.name, description }),
  };
}

/** product.created, proved by the product's row. */
function created(doc: ProductDoc): PlannedEvent<'product.created'> {
  const { _id, slug, name, category, image, user_id: userId } = doc;
  return {
    type: 'product.created',
    payload: { productId: _id, slug, name, category, image, userId },
    key: _id,
    actorId: userId,
    proof: { collection: productsCollection, match: { _id }, present: true },
  };
}
