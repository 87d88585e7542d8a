import { createHash } from 'node:crypto';
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
/** The signature of the author set a timeline was last filled for (see `ensureTimeline`). */
const authorsKey = (userId: string) => `timeline-authors:${userId}`;
/** A context's timeline authors and their signature (see `FeedService.timelineAuthors`). */
interface TimelineAuthors {
  viewerId: string;
  large: ReadonlySet<string>;
  authors: ReadonlySet<string>;
  signature: string;
}

const entry = (r: Pick<ReviewDoc, '_id' | 'created_at'>): ScoredMember => ({ score: Date.parse(r.created_at), member: r._id });

/**
 * Home feed by fan-out on write (ARCHITECTURE §7): each member's timeline is a sorted set of
 * review ids (score = posting time), capped, rebuilt from the store when missing. Authors
 * with very many followers are not fanned out; their reviews are merged in at read time. A muted
 * author's reviews stay out of the muter's timeline (issue 22 §1), follow or not. Reviews with a
 * followed tag by authors not followed are merged at read time too (issue 21 §6), under the
 * visibility rules of that moment.
 *
 * Convergence (issue 46): a timeline is a cache of candidates, never the truth. Its removals and
 * insertions commute: a read keeps only entries by the authors the viewer's context allows now
 * (a fan-out that read the follow graph before an unfollow and wrote after it leaves an entry
 * that no read shows, and the read drops it), and a timeline filled for another author set than
 * the context's (a rebuild that read the context before a follow and wrote after it) is filled
 * again for the current one. The record of that set promises every recent review of its authors:
 * whatever takes out entries of an author who may be in it (a mute, an unfollow, a read with an
 * older context) clears it after the removal. The context follows the committed read models (its
 * stamps), so the feed is right once they are, whatever order the events came in.
 */
@Injectable()
export class FeedService implements OnModuleInit, OnApplicationShutdown {
  private readonly authorSets = new WeakMap<ViewerContext, TimelineAuthors>();

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
   * Whose reviews a member's timeline holds (their own and those of the followed authors they did
   * not mute, large accounts aside: merged at read time) and the set's signature, worked out once
   * per context: the contexts and the large accounts' set are cached objects, replaced when they change.
   */
  private timelineAuthors(viewerId: string, context: ViewerContext, large: ReadonlySet<string>): TimelineAuthors {
    const known = this.authorSets.get(context);
    if (known?.viewerId === viewerId && known.large === large) return known;
    const authors = new Set([viewerId, ...context.followees.filter((id) => !large.has(id) && !context.muted.has(id))]);
    const worked: TimelineAuthors = { viewerId, large, authors, signature: createHash('sha1').update([...authors].sort().join(',')).digest('base64url') };
    this.authorSets.set(context, worked);
    return worked;
  }

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
    const { authors, signature } = this.timelineAuthors(viewerId, context, largeAccounts);
    await this.ensureTimeline(viewerId, authors, signature);
    const key = timelineKey(viewerId);
    const large = followees.filter((id) => largeAccounts.has(id) && !muted.has(id));
    if (large.length === 0 && tags.length === 0) {
      const docs = await this.shownWindow(viewerId, skip, limit, authors, signature);
      return { items: await this.reviews.present(docs, viewerId), total: await this.cache.zcard(key) };
    }
    // Merge: the newest skip+limit of the timeline, of the large accounts and of the followed tags
    // (by anyone not followed: followed authors' reviews come in above), then one page of that.
    const need = skip + limit;
    const [whole, merged, pulledTotal, tagged] = await Promise.all([
      this.shownWindow(viewerId, 0, need, authors, signature),
      this.reviews.recentByAuthors(large, need),
      this.reviews.countByAuthors(large),
      this.reviews.recentTagged([...tags], viewerId, [viewerId, ...followees], need),
    ]);
    const own = await this.cache.zcard(key);
    // The timeline's rows come whole; the merged ones (projections) are read whole for the page only.
    const unique = [...new Map([...merged, ...tagged.docs, ...whole].map((d) => [d._id, d])).values()];
    unique.sort((a, b) => b.created_at.localeCompare(a.created_at) || b._id.localeCompare(a._id));
    const page = unique.slice(skip, need);
    const full = new Map(whole.map((d) => [d._id, d]));
    const missing = new Map((await this.reviews.findMany(page.filter((d) => !full.has(d._id)).map((d) => d._id))).map((d) => [d._id, d]));
    const docs = page.flatMap((d) => full.get(d._id) ?? missing.get(d._id) ?? []);
    return { items: await this.reviews.present(docs, viewerId), total: own + pulledTotal + tagged.total };
  }

  /**
   * The reviews at timeline positions [start, start + count), read once every entry there may be
   * shown: an entry the page must not show (its author out of the set, the review hidden or deleted
   * after it was written in) is taken out and the window read again, so it uses up no slot and the
   * next page starts right after this one's last review. A pass reads again only after it took
   * entries out, and only writes (fan-outs, fills) put any back, so the loop ends.
   */
  private async shownWindow(userId: string, start: number, count: number, authors: ReadonlySet<string>, signature: string): Promise<ReviewDoc[]> {
    for (;;) {
      const ids = await this.cache.zrevrange(timelineKey(userId), start, start + count - 1);
      const docs = await this.reviews.findMany(ids);
      const found = new Set(docs.map((d) => d._id));
      const gone = ids.filter((id) => !found.has(id));
      const strays = docs.filter((d) => !authors.has(d.user_id));
      if (gone.length === 0 && strays.length === 0) return docs;
      await Promise.all([this.dropStrays(userId, strays, signature), this.dropGone(userId, gone, authors)]);
    }
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

  /**
   * `fanOut` for each of `reviews` (a run of review.created): the authors' counts, followers and
   * mutes in a query each, then one push per timeline with all of its new entries.
   */
  async fanOutMany(reviews: ReadonlyArray<Pick<ReviewDoc, '_id' | 'user_id' | 'created_at'>>): Promise<void> {
    const authors = [...new Set(reviews.map((r) => r.user_id))];
    const large = await this.graph.large(authors, this.settings.fanoutMaxFollowers);
    const followers = await this.graph.followersOfEach(authors.filter((id) => !large.has(id)));
    const muted = await this.mutes.mutedPairs([...followers].flatMap(([author, of]) => of.map((follower) => [follower, author] as const)));
    const entries = new Map<string, ScoredMember[]>();
    for (const review of reviews) {
      const readers = (followers.get(review.user_id) ?? []).filter((id) => !muted(id, review.user_id));
      for (const id of [review.user_id, ...readers]) {
        const scored = entries.get(id);
        if (scored) scored.push(entry(review));
        else entries.set(id, [entry(review)]);
      }
    }
    await Promise.all([...entries].map(([id, scored]) => this.push(id, scored)));
  }

  async retract(reviewId: string, authorId: string): Promise<void> {
    const owners = [authorId, ...(await this.graph.followers(authorId))];
    await Promise.all(owners.map((id) => this.cache.zrem(timelineKey(id), reviewId)));
  }

  /**
   * A moderator hid or showed a review: it leaves or rejoins its readers' timelines as its row says
   * now, so a repeated or late event changes nothing. Taken out, the row is read again: a review
   * shown meanwhile may have had its fan-out before the removal, and goes back.
   */
  async reconcile(reviewId: string, authorId: string): Promise<void> {
    const [shown] = await this.reviews.findMany([reviewId]);
    if (shown) return this.fanOut(shown);
    await this.retract(reviewId, authorId);
    const [back] = await this.reviews.findMany([reviewId]);
    if (back) await this.fanOut(back);
  }

  /**
   * Takes an author's reviews out of a timeline. Only their newest `cap` can be in it: anything
   * older is older than `cap` newer entries of the same timeline and was trimmed already. The
   * timeline was filled for a set with the author in it, and an unmute or a follow again before
   * any read brings that very set back: the record goes after the entries, so that read fills again.
   */
  async dropAuthor(viewerId: string, authorId: string): Promise<void> {
    const recent = await this.reviews.recentByAuthors([authorId], this.settings.timelineCap);
    await Promise.all(recent.map((r) => this.cache.zrem(timelineKey(viewerId), r._id)));
    await this.cache.del(authorsKey(viewerId));
  }

  /** Drops whole timelines: each is rebuilt from the store on its owner's next read (erasure, issue 20 §5). */
  async dropTimelines(userIds: readonly string[]): Promise<void> {
    await Promise.all(userIds.flatMap((id) => [this.cache.del(authorsKey(id)), this.cache.del(timelineKey(id))]));
  }

  /** At boot: a REDIS_URL that cannot be reached stops the service within seconds instead of failing every feed read. */
  onModuleInit(): Promise<void> {
    return this.cache.connect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.cache.close();
  }

  /** Adds to a timeline that was filled once (it may be empty): one never filled is filled whole on its next read. */
  private async push(userId: string, entries: ScoredMember[]): Promise<void> {
    if (entries.length === 0 || !(await this.cache.exists(authorsKey(userId)))) return;
    const key = timelineKey(userId);
    await this.cache.zaddMany(key, entries);
    await this.cache.ztrim(key, this.settings.timelineCap);
  }

  /**
   * Fills the timeline with its authors' recent reviews unless it was filled for this very author
   * set. It merges rather than replaces, and marks the set before it reads: a fan-out that lands
   * while it runs is kept, and one that lands before the mark is read back from the store. Entries
   * of authors no longer in the set stay until a read meets them (`dropStrays`).
   */
  private async ensureTimeline(userId: string, authors: ReadonlySet<string>, signature: string): Promise<void> {
    if ((await this.cache.get(authorsKey(userId))) === signature) return;
    await this.cache.set(authorsKey(userId), signature);
    try {
      const recent = await this.reviews.recentByAuthors([...authors], this.settings.timelineCap);
      const key = timelineKey(userId);
      if (recent.length > 0) await this.cache.zaddMany(key, recent.map(entry));
      await this.cache.ztrim(key, this.settings.timelineCap);
    } catch (err) {
      await this.cache.del(authorsKey(userId)).catch(() => undefined); // filled again on the next read
      throw err;
    }
  }

  /**
   * Takes these entries, whose author the timeline must not hold now, out of it. A read with a newer
   * context may have filled it for a set with those authors meanwhile: then its record goes too
   * (after the entries), and the next read fills again.
   */
  private async dropStrays(userId: string, strays: readonly ReviewDoc[], signature: string): Promise<void> {
    if (strays.length === 0) return;
    await Promise.all(strays.map((d) => this.cache.zrem(timelineKey(userId), d._id)));
    if ((await this.cache.get(authorsKey(userId))) !== signature) await this.cache.del(authorsKey(userId));
  }

  /**
   * Takes out entries of reviews that are hidden or gone. One shown again meanwhile is put back: its
   * fan-out may have landed before the removal, and the row, read after it, says so.
   */
  private async dropGone(userId: string, ids: readonly string[], authors: ReadonlySet<string>): Promise<void> {
    if (ids.length === 0) return;
    await Promise.all(ids.map((id) => this.cache.zrem(timelineKey(userId), id)));
    const back = (await this.reviews.findMany([...ids])).filter((d) => authors.has(d.user_id));
    await this.push(userId, back.map(entry));
  }
}
