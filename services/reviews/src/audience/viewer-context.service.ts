import { Inject, Injectable } from '@nestjs/common';
import { FILTERS_PER_MEMBER } from '@app/contracts';
import { BlocksReadModel, MutesReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, newId, STORE, Store } from '@app/store';
import { feedSettings } from '../feed/feed.settings';
import { KeywordFilterDoc, keywordFiltersCollection } from '../filters/keyword-filter.collection';
import { ProductLikeDoc, productLikesCollection } from '../products/product-like.collection';
import { FollowerCountDoc, followerCountsCollection } from '../read-models/follow-graph.collection';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { TagFollowDoc, tagFollowsCollection } from '../tags/tag-follow.collection';
import { PrivacyDoc, privacyCollection } from './privacy.collection';
import { ContextStampDoc, contextStampsCollection, LARGE_ACCOUNTS, RESTRICTED_ACCOUNTS } from './viewer-context.collection';

/** What a member's pages read about the member: whom they follow, mute and block, their tags, keyword filters and liked products. */
export interface ViewerContext {
  readonly followees: readonly string[];
  readonly follows: ReadonlySet<string>;
  readonly muted: ReadonlySet<string>;
  /** Blocked by the viewer or blocking the viewer: each is hidden from the other. */
  readonly blocked: ReadonlySet<string>;
  readonly tags: readonly string[];
  /** Newest first, expired ones included (a filter expires by the clock, not by a write). */
  readonly filters: readonly KeywordFilterDoc[];
  /** The products the member likes (a product card's `liked`). */
  readonly likedProducts: ReadonlySet<string>;
}

/** A viewer's context with the sets every viewer shares, as stored at one moment. */
export interface ViewerScope {
  context: ViewerContext;
  /** Accounts with at least FEED_FANOUT_MAX_FOLLOWERS followers: merged into feeds at read time. */
  large: ReadonlySet<string>;
  /** Accounts that are not public (friends-only or private). */
  restricted: ReadonlySet<string>;
}

interface Stamped<T> {
  stamp: string;
  value: T;
}

/** Contexts kept per replica: at 10,000 members with 5 follows each, a few MB when all are in. */
const DEFAULT_CAPACITY = 10_000;

/**
 * The viewer's context in memory (issue 28 §2). The store stays the truth; each replica keeps the
 * contexts its requests read, and one read of three stamp rows per request tells it whether its
 * copies are still the stored ones. Every writer of a context (the follow, mute and block
 * handlers, tag follows, keyword filters, product likes) calls `touch` after its change, so the next request on
 * any replica loads it again; the shared sets are stamped the same way.
 */
@Injectable()
export class ViewerContextService {
  private readonly stamps: Collection<ContextStampDoc>;
  private readonly tagFollows: Collection<TagFollowDoc>;
  private readonly filters: Collection<KeywordFilterDoc>;
  private readonly counts: Collection<FollowerCountDoc>;
  private readonly privacy: Collection<PrivacyDoc>;
  private readonly productLikes: Collection<ProductLikeDoc>;
  /** Least recently read first (a Map keeps insertion order; a read moves its entry to the end). */
  private readonly entries = new Map<string, Stamped<ViewerContext>>();
  private readonly shared = new Map<string, Stamped<ReadonlySet<string>>>();
  /** `of`'s answers of this turn of the event loop, by viewer. */
  private readonly thisTurn = new Map<string, Promise<ViewerScope>>();
  readonly capacity = Number(process.env.VIEWER_CONTEXT_CAPACITY) || DEFAULT_CAPACITY;
  /** Accounts with at least this many followers are merged at read time, not fanned out. */
  readonly threshold = feedSettings().fanoutMaxFollowers;

  constructor(
    @Inject(STORE) store: Store,
    private readonly graph: FollowGraphService,
    private readonly mutes: MutesReadModel,
    private readonly blocks: BlocksReadModel,
  ) {
    this.stamps = store.collection(contextStampsCollection);
    this.tagFollows = store.collection(tagFollowsCollection);
    this.filters = store.collection(keywordFiltersCollection);
    this.counts = store.collection(followerCountsCollection);
    this.privacy = store.collection(privacyCollection);
    this.productLikes = store.collection(productLikesCollection);
  }

  /**
   * The viewer's context and the shared sets, as stored now: one read when every copy is current.
   * The answer holds for the rest of this turn of the event loop (a like asks whether the viewer
   * may see the review, then whether either blocks the other): the store's caches look at other
   * processes' commits once a turn too, and `touch` forgets it at once.
   */
  of(viewerId: string): Promise<ViewerScope> {
    let scope = this.thisTurn.get(viewerId);
    if (!scope) {
      if (this.thisTurn.size === 0) setImmediate(() => this.thisTurn.clear());
      scope = this.read(viewerId);
      this.thisTurn.set(viewerId, scope);
      // A failed read is not kept; a later one (after a touch) is left alone.
      scope.catch(() => this.thisTurn.get(viewerId) === scope && this.thisTurn.delete(viewerId));
    }
    return scope;
  }

  private async read(viewerId: string): Promise<ViewerScope> {
    const rows = await this.stamps.find({ _id: { $in: [viewerId, LARGE_ACCOUNTS, RESTRICTED_ACCOUNTS] } });
    const stampOf = (id: string) => rows.find((r) => r._id === id)?.stamp ?? '';
    const [context, large, restricted] = await Promise.all([
      this.contextAt(viewerId, stampOf(viewerId)),
      this.sharedAt(LARGE_ACCOUNTS, stampOf(LARGE_ACCOUNTS)),
      this.sharedAt(RESTRICTED_ACCOUNTS, stampOf(RESTRICTED_ACCOUNTS)),
    ]);
    return { context, large, restricted };
  }

  /** After a change to the member's context (or, with a shared set's id, to that set): every replica's copy is stale from now on. */
  async touch(id: string): Promise<void> {
    this.thisTurn.clear();
    this.entries.delete(id);
    this.shared.delete(id);
    await this.stamps.updateOne({ _id: id }, { $set: { stamp: newId() } }, { upsert: true });
  }

  /** `touch` for each of `ids`: one new stamp for all of them, in one update (and one insert for those without a row yet). */
  async touchMany(ids: readonly string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length <= 1) return unique.length ? this.touch(unique[0]) : undefined;
    this.thisTurn.clear();
    unique.forEach((id) => (this.entries.delete(id), this.shared.delete(id)));
    const stamp = newId();
    if ((await this.stamps.updateMany({ _id: { $in: unique } }, { $set: { stamp } })).matched === unique.length) return;
    const stamped = new Set((await this.stamps.find({ _id: { $in: unique } })).map((d) => d._id));
    const missing = unique.filter((id) => !stamped.has(id));
    try {
      await this.stamps.insertMany(missing.map((_id) => ({ _id, stamp })));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const id of missing) await this.touch(id); // written meanwhile: each on its own
    }
  }

  /** After follows of `followeeIds` (one per follow): when one crossed the threshold, the large accounts changed. */
  async followersGained(followeeIds: readonly string[]): Promise<void> {
    const gained = new Map<string, number>();
    followeeIds.forEach((id) => gained.set(id, (gained.get(id) ?? 0) + 1));
    const counts = await this.graph.followerCounts([...gained.keys()]);
    const crossed = [...gained].some(([id, n]) => {
      const count = counts.get(id) ?? 0;
      return count >= this.threshold && count - n < this.threshold;
    });
    if (crossed) await this.touch(LARGE_ACCOUNTS);
  }

  /** After an unfollow of `followeeId`: when it fell below the threshold, the large accounts changed. */
  async followerLost(followeeId: string): Promise<void> {
    if ((await this.graph.followerCount(followeeId)) === this.threshold - 1) await this.touch(LARGE_ACCOUNTS);
  }

  /** How many contexts this replica holds (bounded by `capacity`). */
  get size(): number {
    return this.entries.size;
  }

  private async contextAt(viewerId: string, stamp: string): Promise<ViewerContext> {
    const entry = this.entries.get(viewerId);
    if (entry && entry.stamp === stamp) {
      this.entries.delete(viewerId);
      this.entries.set(viewerId, entry);
      return entry.value;
    }
    // The stamp was read before the rows: a change in between leaves a newer stamp, and the next request loads again.
    const [followees, muted, blocked, tags, filters, likedProducts] = await Promise.all([
      this.graph.followees(viewerId),
      this.mutes.mutedBy(viewerId),
      this.blocks.hiddenFrom(viewerId),
      this.tagFollows.find({ user_id: viewerId }, { projection: { tag: 1 } }),
      this.filters.find({ user_id: viewerId }, { sort: { created_at: -1 }, limit: FILTERS_PER_MEMBER }),
      this.productLikes.find({ user_id: viewerId }, { projection: { product_id: 1 } }),
    ]);
    const context: ViewerContext = {
      followees,
      follows: new Set(followees),
      muted: new Set(muted),
      blocked: new Set(blocked),
      tags: tags.map((t) => t.tag),
      filters,
      likedProducts: new Set(likedProducts.map((like) => like.product_id)),
    };
    this.entries.delete(viewerId);
    this.entries.set(viewerId, { stamp, value: context });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return context;
  }

  private async sharedAt(id: string, stamp: string): Promise<ReadonlySet<string>> {
    const copy = this.shared.get(id);
    if (copy && copy.stamp === stamp) return copy.value;
    const docs =
      id === LARGE_ACCOUNTS
        ? await this.counts.find({ follower_count: { $gte: this.threshold } }, { projection: { _id: 1 } })
        : await this.privacy.find({ privacy_profile: { $ne: 'public' } }, { projection: { _id: 1 } });
    const value = new Set(docs.map((d) => d._id));
    this.shared.set(id, { stamp, value });
    return value;
  }
}
