import { Inject, Injectable } from '@nestjs/common';
import {
  CreateKeywordFilterDto,
  FILTERS_PER_MEMBER,
  firstMatchingFilter,
  isFilterActive,
  KeywordFilterView,
  ReviewView,
} from '@app/contracts';
import { Collection, newId, STORE, Store } from '@app/store';
import { ViewerContextService } from '../audience/viewer-context.service';
import { ReviewsException } from '../reviews.errors';
import { KeywordFilterDoc, keywordFiltersCollection } from './keyword-filter.collection';

const toView = (doc: KeywordFilterDoc, now = new Date()): KeywordFilterView => ({
  id: doc._id,
  phrase: doc.phrase,
  whole_word: doc.whole_word,
  expires_at: doc.expires_at,
  active: isFilterActive(doc, now),
  created_at: doc.created_at,
});

/** What a review is matched on: the words its author wrote and the product it is about. */
const searchableText = (review: ReviewView): string => [review.title, review.content, review.product?.name ?? ''].join('\n');

/**
 * A member's keyword filters and the one call every review listing makes with them:
 * `visibleFor(viewerId, reviews)`. Matching reviews stay in the list (pages and totals stay true)
 * marked `filtered_by: phrase`, and the web shows them collapsed as "Filtered: phrase".
 */
@Injectable()
export class KeywordFilterService {
  private readonly filters: Collection<KeywordFilterDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly contexts: ViewerContextService,
  ) {
    this.filters = store.collection(keywordFiltersCollection);
  }

  async list(userId: string): Promise<KeywordFilterView[]> {
    const now = new Date();
    return (await this.ownFilters(userId)).map((doc) => toView(doc, now));
  }

  async create(userId: string, dto: CreateKeywordFilterDto): Promise<KeywordFilterView> {
    if ((await this.filters.count({ user_id: userId })) >= FILTERS_PER_MEMBER) {
      throw new ReviewsException('TOO_MANY_FILTERS', `You can keep at most ${FILTERS_PER_MEMBER} keyword filters`);
    }
    const doc: KeywordFilterDoc = {
      _id: newId(),
      user_id: userId,
      phrase: dto.phrase,
      whole_word: dto.whole_word ?? false,
      expires_at: dto.expires_at ? new Date(dto.expires_at).toISOString() : null,
      created_at: new Date().toISOString(),
    };
    await this.filters.insert(doc);
    await this.contexts.touch(userId);
    return toView(doc);
  }

  async get(userId: string, id: string): Promise<KeywordFilterView> {
    return toView(await this.owned(userId, id));
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.owned(userId, id);
    await this.filters.deleteMany({ _id: id, user_id: userId });
    await this.contexts.touch(userId);
  }

  /** The reviews, in order, each matching one of the viewer's active filters marked with its phrase. */
  async visibleFor(viewerId: string, reviews: ReviewView[]): Promise<ReviewView[]> {
    if (reviews.length === 0) return reviews;
    return this.mark(viewerId, reviews, (await this.contexts.of(viewerId)).context.filters);
  }

  /** `visibleFor` with the viewer's filters at hand (from their context). */
  mark(viewerId: string, reviews: ReviewView[], filters: readonly KeywordFilterDoc[]): ReviewView[] {
    if (reviews.length === 0 || filters.length === 0) return reviews;
    const now = new Date();
    const active = filters.filter((f) => isFilterActive(f, now));
    if (active.length === 0) return reviews;
    return reviews.map((review) => {
      const hit = review.user_id === viewerId ? undefined : firstMatchingFilter(searchableText(review), active, now);
      return hit ? { ...review, filtered_by: hit.phrase } : review;
    });
  }

  private ownFilters(userId: string): Promise<KeywordFilterDoc[]> {
    return this.filters.find({ user_id: userId }, { sort: { created_at: -1 }, limit: FILTERS_PER_MEMBER });
  }

  /** Another member's filter is a 404 like a missing one: its existence is nobody else's business. */
  private async owned(userId: string, id: string): Promise<KeywordFilterDoc> {
    const doc = await this.filters.findOne({ _id: id, user_id: userId });
    if (!doc) throw new ReviewsException('FILTER_NOT_FOUND', 'Filter not found');
    return doc;
  }
}
