import { Inject, Injectable } from '@nestjs/common';
import { FILTERS_PER_MEMBER } from '@app/contracts';
import { MutesReadModel } from '@app/platform';
import { Collection, newId, STORE, Store } from '@app/store';
import { KeywordFilterDoc, keywordFiltersCollection } from '../filters/keyword-filter.collection';
import { FollowerCountDoc, followerCountsCollection } from '../read-models/follow-graph.collection';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { TagFollowDoc, tagFollowsCollection } from '../tags/tag-follow.collection';
import { feedSettings } from '../feed/feed.settings';
import { ContextStampDoc, contextStampsCollection, LARGE_ACCOUNTS } from './viewer-context.collection';

/** What a member's pages read about the member: whom they follow and mute, their tags and keyword filters. */
export interface ViewerContext {
  readonly followees: readonly string[];
  readonly follows: ReadonlySet<string>;
  readonly muted: ReadonlySet<string>;
  readonly tags: readonly string[];
  /** Newest first, expired ones included (a filter expires by the clock, not by a write). */
  readonly filters: readonly KeywordFilterDoc[];
}

interface Entry {
  stamp: string;
  context: ViewerContext;
}

/** Contexts kept per replica: at 10,000 members with 5 follows each, about 5 MB when all are in. */
const DEFAULT_CAPACITY = 10_000;

/**
 * The viewer's context in memory (issue 28 §2). The store stays the truth; each replica keeps the
 * contexts its requests read, and one read of two stamp rows per page tells it whether its copy is
 * still the stored one. Every writer of a context (the follow, mute and block handlers, tag
 * follows, keyword filters) calls `touch` after its change, so the next page on any replica loads
 * it again. The set of large accounts is kept the same way under one stamp.
 */
@Injectable()
export class ViewerContextService {
  private readonly stamps: Collection<ContextStampDoc>;
  private readonly tagFollows: Collection<TagFollowDoc>;
  private readonly filters: Collection<KeywordFilterDoc>;
  private readonly counts: Collection<FollowerCountDoc>;
  /** Least recently read first (a Map keeps insertion order; a read moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  private large?: { stamp: string; ids: ReadonlySet<string> };
  readonly capacity = Number(process.env.VIEWER_CONTEXT_CAPACITY) || DEFAULT_CAPACITY;
  /** Accounts with at least this many followers are merged at read time, not fanned out. */
  readonly threshold = feedSettings().fanoutMaxFollowers;

  constructor(
    @Inject(STORE) store: Store,
    private readonly graph: FollowGraphService,
    private readonly mutes: MutesReadModel,
  ) {
    this.stamps = store.collection(contextStampsCollection);
    this.tagFollows = store.collection(tagFollowsCollection);
    this.filters = store.collection(keywordFiltersCollection);
    this.counts = store.collection(followerCountsCollection);
  }

  /** The viewer's context and the large accounts, as stored now: one read when both copies are current. */
  async of(viewerId: string): Promise<{ context: ViewerContext; large: ReadonlySet<string> }> {
    const rows = await this.stamps.find({ _id: { $in: [viewerId, LARGE_ACCOUNTS] } });
    const stampOf = (id: string) => rows.find((r) => r._id === id)?.stamp ?? '';
    const [context, large] = await Promise.all([this.contextAt(viewerId, stampOf(viewerId)), this.largeAt(stampOf(LARGE_ACCOUNTS))]);
    return { context, large };
  }

  /** After a change to the member's context: every replica's copy is stale from now on. */
  async touch(userId: string): Promise<void> {
    this.entries.delete(userId);
    await this.stamps.updateOne({ _id: userId }, { $set: { stamp: newId() } }, { upsert: true });
  }

  /** After a follow or unfollow of `followeeId`: when it crossed the threshold, the large accounts changed. */
  async followersChanged(followeeId: string, followed: boolean): Promise<void> {
    const count = await this.graph.followerCount(followeeId);
    if (count === (followed ? this.threshold : this.threshold - 1)) {
      this.large = undefined;
      await this.stamps.updateOne({ _id: LARGE_ACCOUNTS }, { $set: { stamp: newId() } }, { upsert: true });
    }
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
      return entry.context;
    }
    // The stamp was read before the rows: a change in between leaves a newer stamp, and the next page loads again.
    const [followees, muted, tags, filters] = await Promise.all([
      this.graph.followees(viewerId),
      this.mutes.mutedBy(viewerId),
      this.tagFollows.find({ user_id: viewerId }, { projection: { tag: 1 } }),
      this.filters.find({ user_id: viewerId }, { sort: { created_at: -1 }, limit: FILTERS_PER_MEMBER }),
    ]);
    const context: ViewerContext = {
      followees,
      follows: new Set(followees),
      muted: new Set(muted),
      tags: tags.map((t) => t.tag),
      filters,
    };
    this.entries.delete(viewerId);
    this.entries.set(viewerId, { stamp, context });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return context;
  }

  private async largeAt(stamp: string): Promise<ReadonlySet<string>> {
    if (this.large?.stamp === stamp) return this.large.ids;
    const docs = await this.counts.find({ follower_count: { $gte: this.threshold } }, { projection: { _id: 1 } });
    const ids = new Set(docs.map((d) => d._id));
    this.large = { stamp, ids };
    return ids;
  }
}
