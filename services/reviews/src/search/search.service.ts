import { Inject, Injectable } from '@nestjs/common';
import { ReviewsSearchPart, SearchTagView, TAG_PATTERN, tagKey } from '@app/contracts';
import { Collection, Filter, Store, STORE } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { KeywordFilterService } from '../filters/keyword-filter.service';
import { ProductDoc, productsCollection } from '../products/product.collection';
import { ProductsService } from '../products/products.service';
import { ReviewPresenter } from '../reviews/review-presenter';
import { ReviewDoc, reviewsCollection } from '../reviews/review.collection';

/**
 * The reviews service's part of the one search (issue 21 §5): word search over product names and
 * descriptions and over review titles and texts, through the store's text search. Reviews follow
 * the lists' rule: authors hidden from the viewer or muted by them are left out, and so are reviews
 * a moderator hid. Reviews matching one of the viewer's keyword filters are left out too: a search
 * result is a one-line link, where a collapsed "Filtered" row would say nothing.
 */
@Injectable()
export class SearchService {
  private readonly products: Collection<ProductDoc>;
  private readonly reviews: Collection<ReviewDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly productViews: ProductsService,
    private readonly presenter: ReviewPresenter,
    private readonly audience: AudienceService,
    private readonly keywordFilters: KeywordFilterService,
  ) {
    this.products = store.collection(productsCollection);
    this.reviews = store.collection(reviewsCollection);
  }

  async search(viewerId: string, words: string, limit: number): Promise<ReviewsSearchPart> {
    const hidden = await this.audience.hiddenInLists(viewerId);
    const visible: Filter = { hidden_at: { $exists: false }, ...(hidden.length > 0 && { user_id: { $nin: hidden } }) };
    const [products, reviews] = await Promise.all([this.products.search(words, {}, { limit }), this.reviews.search(words, visible, { limit })]);
    return {
      products: await this.productViews.views(products, viewerId),
      reviews: (await this.keywordFilters.visibleFor(viewerId, await this.presenter.present(reviews, viewerId))).filter((r) => !r.filtered_by),
      tags: await this.tags(words, reviews, visible, limit),
    };
  }

  /**
   * The Tags group: each word that is a tag (`#kahve` or `kahve`), and the matching reviews' tags that begin
   * with a word, kept when a review the viewer may see carries it; most used first.
   */
  private async tags(words: string, reviews: readonly ReviewDoc[], visible: Filter, limit: number): Promise<SearchTagView[]> {
    const asked = words
      .split(/\s+/)
      .map((w) => w.replace(/^#/, ''))
      .filter((w) => TAG_PATTERN.test(w))
      .map(tagKey);
    const carried = reviews.flatMap((r) => r.tags ?? []).filter((tag) => asked.some((w) => tag.startsWith(w)));
    const candidates = [...new Set([...asked, ...carried])].slice(0, limit);
    const counted = await Promise.all(candidates.map(async (tag) => ({ tag, review_count: await this.reviews.count({ ...visible, tags: { $in: [tag] } }) })));
    return counted.filter((t) => t.review_count > 0).sort((a, b) => b.review_count - a.review_count);
  }
}
