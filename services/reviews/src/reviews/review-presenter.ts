import { Inject, Injectable } from '@nestjs/common';
import { ReviewView } from '@app/contracts';
import { Collection, STORE, Store } from '@app/store';
import { LikeDoc, likesCollection } from '../likes/like.collection';
import { toProductCard } from '../products/products.service';
import { ProductsService } from '../products/products.service';
import { SavedDoc, savedCollection } from '../saved/saved.collection';
import { UserCardsService } from '../users/user-cards.service';
import { ReviewDoc } from './review.collection';
import { ReviewCounts } from './review-counts.service';

/** Builds the Review shape of spec part 1 §3 for one viewer, in a fixed number of queries per page. */
@Injectable()
export class ReviewPresenter {
  private readonly likes: Collection<LikeDoc>;
  private readonly saved: Collection<SavedDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly cards: UserCardsService,
    private readonly products: ProductsService,
    private readonly counts: ReviewCounts,
  ) {
    this.likes = store.collection(likesCollection);
    this.saved = store.collection(savedCollection);
  }

  async present(docs: ReviewDoc[], viewerId: string | null): Promise<ReviewView[]> {
    if (docs.length === 0) return [];
    const ids = docs.map((d) => d._id);
    const productIds = docs.flatMap((d) => (d.product_id ? [d.product_id] : []));
    const [counts, cards, products, liked, saved] = await Promise.all([
      this.counts.for(ids),
      this.cards.cardsFor(docs.map((d) => d.user_id)),
      this.products.cardsFor(productIds),
      viewerId ? this.likes.find({ user_id: viewerId, review_id: { $in: ids } }) : Promise.resolve([]),
      viewerId ? this.saved.find({ user_id: viewerId, kind: 'review', item_id: { $in: ids } }) : Promise.resolve([]),
    ]);
    const likedIds = new Set(liked.map((l) => l.review_id));
    const savedIds = new Set(saved.map((s) => s.item_id));
    return docs.map((d) => {
      const product = d.product_id ? products.get(d.product_id) : undefined;
      const { like_count = 0, comment_count = 0 } = counts.get(d._id) ?? {};
      return {
        id: d._id,
        user_id: d.user_id,
        product_id: d.product_id,
        rating: d.rating,
        title: d.title,
        content: d.content,
        images: d.images,
        image_alts: d.images.map((_url, i) => d.image_alts?.[i] ?? ''),
        tags: d.tags ?? [],
        location: d.location,
        date: d.date,
        created_at: d.created_at,
        updated_at: d.updated_at,
        edited: d.edited,
        has_spoilers: d.has_spoilers ?? false,
        likes: like_count,
        like_count,
        comment_count,
        liked: likedIds.has(d._id),
        saved: savedIds.has(d._id),
        user: cards.get(d.user_id)!,
        product: product ? toProductCard(product) : null,
      };
    });
  }
}
