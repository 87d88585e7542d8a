import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ReviewView } from '@app/contracts';
import { MutesReadModel } from '@app/platform';
import { Cache, ScoredMember } from '@app/store';
import { ReviewDoc } from '../reviews/review.collection';
import { ReviewsService } from '../reviews/reviews.service';
import { FEED_CACHE, FEED_SETTINGS, FeedSettings } from './feed.settings';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { KeywordFilterService } from '../filters/keyword-filter.service';
import { ViewerContext, ViewerContextService } from '../audience/viewer-context.service';

const timelineKey = (userId: string) => `timeline:${userId}`;
const entry = (r: Pick<ReviewDoc, '_id' | 'created_at'>): ScoredMember => ({ score: Date.parse(r.created_at), member: r._id });

/**
 * Home feed by fan-out on write (ARCHITECTURE §7): each member's timeline is a sorted set of
 * review ids (score = posting time), capped, rebuilt from the store when missing. Authors
 * with very many followers are not fanned out; their reviews are merged in at read time. A muted
 * author's reviews stay out of the muter's timeline (issue 22 §1), follow or not. Reviews with a
 * followed tag by authors not followed are merged at read time too (issue 21 §6), under the
 * visibility rules of that moment.
 */
@Injectable()
export class FeedService implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(FEED_CACHE) private readonly cache: Cache,
    @Inject(FEED_SETTINGS) private readonly settings: FeedSettings,
    private readonly graph: FollowGraphService,
    private readonly reviews: ReviewsService,
    private readonly mutes: MutesReadModel,
    private readonly keywordFilters: KeywordFilterService,
    private readonly contexts: ViewerContextService,
  ) {}

  /**
   * One page of the timeline; reviews matching the viewer's keyword filters come marked
   * `filtered_by`. The viewer's follows, mutes, tags and filters come from memory (ViewerContextService).
   */
  async page(viewerId: string, skip: number, limit: number): Promise<{ items: ReviewView[]; total: number }> {
    const { context, large } = await this.contexts.of(viewerId);
    const { items, total } = await this.timelinePage(viewerId, context, large, skip, limit);
    return { items: this.keywordFilters.mark(viewerId, items, context.filters), total };
  }

  private async timelinePage(
    viewerId: string,
    context: ViewerContext,
    largeAccounts: ReadonlySet<string>,
    skip: number,
    limit: number,
  ): Promise<{ items: ReviewView[]; total: number }> {
    const { followees, muted, tags } = context;
    await this.ensureTimeline(viewerId, context, largeAccounts);
    const key = timelineKey(viewerId);
    const large = followees.filter((id) => largeAccounts.has(id) && !muted.has(id));
    if (large.length === 0 && tags.length === 0) {
      const [ids, total] = await Promise.all([this.cache.zrevrange(key, skip, skip + limit - 1), this.cache.zcard(key)]);
      return { items: await this.reviews.present(await this.reviews.findMany(ids), viewerId), total };
    }
    // Merge: the newest skip+limit of the timeline, of the large accounts and of the followed tags
    // (by anyone not followed: followed authors' reviews come in above), then one page of that.
    const need = skip + limit;
    const [ids, own, merged, pulledTotal, tagged] = await Promise.all([
      this.cache.zrevrange(key, 0, need - 1),
      this.cache.zcard(key),
      this.reviews.recentByAuthors(large, need),
      this.reviews.countByAuthors(large),
      this.reviews.recentTagged([...tags], viewerId, [viewerId, ...followees], need),
    ]);
    // The timeline's rows come whole; the merged ones (projections) are read whole for the page only.
    const whole = await this.reviews.findMany(ids);
    const unique = [...new Map([...merged, ...tagged.docs, ...whole].map((d) => [d._id, d])).values()];
    unique.sort((a, b) => b.created_at.localeCompare(a.created_at) || b._id.localeCompare(a._id));
    const page = unique.slice(skip, need);
    const full = new Map(whole.map((d) => [d._id, d]));
    const missing = new Map((await this.reviews.findMany(page.filter((d) => !full.has(d._id)).map((d) => d._id))).map((d) => [d._id, d]));
    const docs = page.flatMap((d) => full.get(d._id) ?? missing.get(d._id) ?? []);
    return { items: await this.reviews.present(docs, viewerId), total: own + pulledTotal + tagged.total };
  }

  /** A new review goes to its author's timeline and, unless the author is large, to every follower's who did not mute them. */
  async fanOut(review: Pick<ReviewDoc, '_id' | 'user_id' | 'created_at'>): Promise<void> {
    const followers = (await this.graph.followerCount(review.user_id)) >= this.settings.fanoutMaxFollowers
      ? []
      : await this.graph.followers(review.user_id);
    const muters = await this.mutes.mutersAmong(review.user_id, followers);
    const readers = followers.filter((id) => !muters.has(id));
    await Promise.all([review.user_id, ...readers].map((id) => this.push(id, [entry(review)])));
  }

  async retract(reviewId: string, authorId: string): Promise<void> {
    const owners = [authorId, ...(await this.graph.followers(authorId))];
    await Promise.all(owners.map((id) => this.cache.zrem(timelineKey(id), reviewId)));
  }

  /** A new follow brings the followee's recent reviews in (large accounts come at read time anyway). */
  async mergeAuthor(viewerId: string, authorId: string): Promise<void> {
    if ((await this.graph.followerCount(authorId)) >= this.settings.fanoutMaxFollowers) return;
    const recent = await this.reviews.recentByAuthors([authorId], this.settings.timelineCap);
    await this.push(viewerId, recent.map(entry));
  }

  /**
   * Takes an author's reviews out of a timeline. Only their newest `cap` can be in it: anything
   * older is older than `cap` newer entries of the same timeline and was trimmed already.
   */
  async dropAuthor(viewerId: string, authorId: string): Promise<void> {
    const recent = await this.reviews.recentByAuthors([authorId], this.settings.timelineCap);
    await Promise.all(recent.map((r) => this.cache.zrem(timelineKey(viewerId), r._id)));
  }

  /** Drops whole timelines: each is rebuilt from the store on its owner's next read (erasure, issue 20 §5). */
  async dropTimelines(userIds: readonly string[]): Promise<void> {
    await Promise.all(userIds.map((id) => this.cache.del(timelineKey(id))));
  }

  /** At boot: a REDIS_URL that cannot be reached stops the service within seconds instead of failing every feed read. */
  onModuleInit(): Promise<void> {
    return this.cache.connect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }

  /** Adds to an existing timeline only: a missing one is rebuilt whole on its next read. */
  private async push(userId: string, entries: ScoredMember[]): Promise<void> {
    const key = timelineKey(userId);
    if (entries.length === 0 || !(await this.cache.exists(key))) return;
    await this.cache.zaddMany(key, entries);
    await this.cache.ztrim(key, this.settings.timelineCap);
  }

  private async ensureTimeline(userId: string, { followees, muted }: ViewerContext, large: ReadonlySet<string>): Promise<void> {
    const key = timelineKey(userId);
    if (await this.cache.exists(key)) return;
    const authors = [userId, ...followees.filter((id) => !large.has(id) && !muted.has(id))];
    const recent = await this.reviews.recentByAuthors(authors, this.settings.timelineCap);
    if (recent.length > 0) await this.cache.zaddMany(key, recent.map(entry));
  }
}
