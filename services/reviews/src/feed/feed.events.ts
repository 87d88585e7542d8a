import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { FeedService } from './feed.service';
import { MutesReadModel } from '@app/platform';
import { ViewerContextService } from '../audience/viewer-context.service';
import { FollowGraphService } from '../read-models/follow-graph.service';

@Controller()
export class FeedEvents {
  constructor(
    private readonly feed: FeedService,
    private readonly graph: FollowGraphService,
    private readonly mutes: MutesReadModel,
    private readonly contexts: ViewerContextService,
  ) {}

  @OnEventBatch('review.created')
  async onReviewsCreated(@Payload() events: EventEnvelope<'review.created'>[]): Promise<void> {
    await this.feed.fanOutMany(events.map(({ payload: p }) => ({ _id: p.reviewId, user_id: p.authorId, created_at: p.created_at })));
  }

  @OnEvent('review.deleted')
  async onReviewDeleted(@Payload() event: EventEnvelope<'review.deleted'>): Promise<void> {
    await this.feed.retract(event.payload.reviewId, event.payload.authorId);
  }

  /** A hidden review leaves the timelines (it would use up a page slot there) and comes back when shown again. */
  @OnEvent('moderation.content_hidden')
  async onContentHidden(@Payload() event: EventEnvelope<'moderation.content_hidden'>): Promise<void> {
    if (event.payload.kind === 'review') await this.feed.reconcile(event.payload.contentId, event.payload.authorId);
  }

  @OnEvent('moderation.content_shown')
  async onContentShown(@Payload() event: EventEnvelope<'moderation.content_shown'>): Promise<void> {
    if (event.payload.kind === 'review') await this.feed.reconcile(event.payload.contentId, event.payload.authorId);
  }

  @OnEventBatch('follow.created')
  async onFollowsCreated(@Payload() events: EventEnvelope<'follow.created'>[]): Promise<void> {
    await this.follow(events);
  }

  @OnEventBatch('follow.accepted')
  async onFollowsAccepted(@Payload() events: EventEnvelope<'follow.accepted'>[]): Promise<void> {
    await this.follow(events);
  }

  @OnEvent('follow.removed')
  async onFollowRemoved(@Payload() event: EventEnvelope<'follow.removed'>): Promise<void> {
    await this.unfollow(event.payload.followerId, event.payload.followeeId, event.occurredAt);
  }

  /** A block ends the follows both ways. */
  @OnEvent('block.created')
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    const { blockerId, blockedId } = event.payload;
    await this.unfollow(blockerId, blockedId, event.occurredAt);
    await this.unfollow(blockedId, blockerId, event.occurredAt);
  }

  /**
   * A mute takes the muted author out of the muter's timeline; the follow edge stays. The mute row
   * is written here too (the shared MutesEvents handler writes it as well, idempotently), so the
   * muter's context stamp changes after it, whichever handler runs first.
   */
  @OnEvent('mute.created')
  async onMuteCreated(@Payload() event: EventEnvelope<'mute.created'>): Promise<void> {
    const { muterId, mutedId } = event.payload;
    await this.mutes.setMute(muterId, mutedId, true, event.occurredAt);
    await this.contexts.touch(muterId);
    await this.feed.dropAuthor(muterId, mutedId);
  }

  /**
   * An unmute brings a followed author's recent reviews back: the muter's next read finds the
   * timeline filled for another author set than the context's and fills it again (FeedService).
   */
  @OnEvent('mute.removed')
  async onMuteRemoved(@Payload() event: EventEnvelope<'mute.removed'>): Promise<void> {
    const { muterId, mutedId } = event.payload;
    await this.mutes.setMute(muterId, mutedId, false, event.occurredAt);
    await this.contexts.touch(muterId);
  }

  /** The followees' recent reviews come in on the followers' next read, as after an unmute. */
  private async follow(events: EventEnvelope<'follow.created' | 'follow.accepted'>[]): Promise<void> {
    const added = await this.graph.addMany(events.map(({ payload: p, occurredAt }) => ({ followerId: p.followerId, followeeId: p.followeeId, at: occurredAt })));
    const follows = events.filter((_, i) => added[i]).map((e) => e.payload);
    if (follows.length === 0) return;
    await this.contexts.touchMany(follows.map((p) => p.followerId));
    await this.contexts.followersGained(follows.map((p) => p.followeeId));
  }

  /**
   * Drops the entries even when the edge was already gone: a replay must leave the same state.
   * Reads leave out (and drop) any entry a concurrent fan-out writes back afterwards.
   */
  private async unfollow(followerId: string, followeeId: string, at: string): Promise<void> {
    if (await this.graph.remove(followerId, followeeId, at)) {
      await this.contexts.touch(followerId);
      await this.contexts.followerLost(followeeId);
    }
    await this.feed.dropAuthor(followerId, followeeId);
  }
}
