import { Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ReviewView } from '@app/contracts';
import { PLATFORM_CONFIG, PlatformConfig } from '@app/platform';
import { Cache, Collection, createCache, STORE, Store } from '@app/store';
import { ReviewDoc, reviewsCollection } from './review.collection';

/** What every viewer sees of a review: no liked/saved marks, and no author card (read fresh, so `user.updated` needs no fan-out). */
export type ReviewCard = Omit<ReviewView, 'liked' | 'saved' | 'user'>;

const REVIEW_CARD_CACHE = Symbol('REVIEW_CARD_CACHE');
/** A safety net only: every write that changes a card drops it at once. */
const CARD_TTL_SECONDS = 600;
const key = (reviewId: string) => `card:${reviewId}`;

/**
 * Viewer-independent review cards behind the cache port (memory embedded, Redis distributed),
 * so a feed page skips loading and hydrating its reviews (docs/PERFORMANCE.md round 6).
 * Dropped synchronously by the writes that change a card (this service owns them all).
 */
@Injectable()
export class ReviewCardCache implements OnModuleInit, OnApplicationShutdown {
  private readonly reviews: Collection<ReviewDoc>;

  constructor(@Inject(REVIEW_CARD_CACHE) private readonly cache: Cache, @Inject(STORE) store: Store) {
    this.reviews = store.collection(reviewsCollection);
  }

  async get(ids: readonly string[]): Promise<Map<string, ReviewCard>> {
    const raw = await Promise.all(ids.map((id) => this.cache.get(key(id))));
    return new Map(raw.flatMap((s) => (s ? [JSON.parse(s) as ReviewCard] : [])).map((c) => [c.id, c]));
  }

  async put(cards: readonly ReviewCard[]): Promise<void> {
    await Promise.all(cards.map((c) => this.cache.set(key(c.id), JSON.stringify(c), CARD_TTL_SECONDS)));
  }

  async drop(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.cache.del(key(id))));
  }

  /** A product's edit or removal changes the product card inside every review of it. */
  async dropProduct(productId: string): Promise<void> {
    const about = await this.reviews.find({ product_id: productId }, { projection: { _id: 1 } });
    await this.drop(about.map((r) => r._id));
  }

  onModuleInit(): Promise<void> {
    return this.cache.connect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }
}

@Module({
  providers: [
    ReviewCardCache,
    {
      provide: REVIEW_CARD_CACHE,
      inject: [PLATFORM_CONFIG],
      useFactory: (config: PlatformConfig) => createCache({ redisUrl: config.REDIS_URL, keyPrefix: 'reviews:' }),
    },
  ],
  exports: [ReviewCardCache],
})
export class ReviewCardCacheModule {}
