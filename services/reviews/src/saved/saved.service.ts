import { Inject, Injectable } from '@nestjs/common';
import { ProductView, ReviewView, SavedStatus } from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { ProductsService } from '../products/products.service';
import { ReviewsService } from '../reviews/reviews.service';
import { SavedDoc, savedCollection, SavedKind } from './saved.collection';
import { ReviewsException } from '../reviews.errors';

@Injectable()
export class SavedService {
  private readonly saved: Collection<SavedDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly products: ProductsService,
    private readonly reviews: ReviewsService,
  ) {
    this.saved = store.collection(savedCollection);
  }

  /** Saving twice is fine: the unique row makes it a no-op. */
  async save(userId: string, kind: SavedKind, itemId: string): Promise<SavedStatus> {
    await this.ensureExists(userId, kind, itemId);
    try {
      await this.saved.insert({ user_id: userId, kind, item_id: itemId, created_at: new Date().toISOString() });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    return { saved: true };
  }

  async unsave(userId: string, kind: SavedKind, itemId: string): Promise<SavedStatus> {
    await this.saved.deleteOne({ user_id: userId, kind, item_id: itemId });
    return { saved: false };
  }

  async productsOf(userId: string, skip: number, limit: number): Promise<{ items: ProductView[]; total: number }> {
    const { ids, total } = await this.page(userId, 'product', skip, limit);
    const docs = await this.products.cardsFor(ids);
    const items = await this.products.views(ids.flatMap((id) => docs.get(id) ?? []), userId);
    return { items, total };
  }

  /**
   * Saved reviews the member may still see: a block or the author going private since hides them, as
   * GET /reviews/:id does, and a moderator's hide; those take no place on a page nor in the total.
   */
  async reviewsOf(userId: string, skip: number, limit: number): Promise<{ items: ReviewView[]; total: number }> {
    const saved = await this.saved.find({ user_id: userId, kind: 'review' }, { projection: { item_id: 1 } });
    const hidden = await this.reviews.unlistedAmong(saved.map((row) => row.item_id), userId);
    const { ids, total } = await this.page(userId, 'review', skip, limit, hidden);
    return { items: await this.reviews.present(await this.reviews.findMany(ids), userId), total };
  }

  async forget(kind: SavedKind, itemId: string): Promise<void> {
    await this.saved.deleteMany({ kind, item_id: itemId });
  }

  private async page(userId: string, kind: SavedKind, skip: number, limit: number, hidden: string[] = []) {
    const filter = { user_id: userId, kind, ...(hidden.length > 0 && { item_id: { $nin: hidden } }) };
    const [rows, total] = await Promise.all([
      this.saved.find(filter, { sort: { created_at: -1, _id: -1 }, skip, limit }),
      this.saved.count(filter),
    ]);
    return { ids: rows.map((r) => r.item_id), total };
  }

  private async ensureExists(userId: string, kind: SavedKind, itemId: string): Promise<void> {
    if (kind === 'product') {
      if (!(await this.products.findById(itemId))) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
      return;
    }
    await this.reviews.findVisible(itemId, userId);
  }
}
