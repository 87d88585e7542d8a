import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EventEnvelope, MessageMentions } from '@app/contracts';
import { OnEvent, OnEventBatch } from '@app/bus';
import { RelationsService } from '../read-models/relations.service';
import { Notifier } from './notifier.service';

/** Every notification starts here, from an event (ARCHITECTURE §7), never from a direct call. */
@Controller()
export class NotificationEvents {
  constructor(
    private readonly notifier: Notifier,
    private readonly relations: RelationsService,
  ) {}

  @OnEvent('moderation.content_hidden')
  async onContentHidden(@Payload() event: EventEnvelope<'moderation.content_hidden'>): Promise<void> {
    const p = event.payload;
    await this.notifier.notifyModeration({
      eventId: event.id,
      type: p.kind === 'comment' ? 'comment_hidden' : 'review_hidden',
      recipientId: p.authorId,
      actorId: p.authorId,
      subjectId: p.contentId,
      reason: p.reason,
    });
  }

  /** A run of likes: read together, told in order (`Notifier.notifyMany`). */
  @OnEventBatch('review.liked')
  async onReviewsLiked(@Payload() events: EventEnvelope<'review.liked'>[]): Promise<void> {
    await this.notifier.notifyMany(
      events.map((event) => ({
        eventId: event.id,
        type: 'review_liked',
        recipientId: event.payload.reviewAuthorId,
        actorId: event.payload.userId,
        subjectId: event.payload.reviewId,
      })),
    );
  }

  @OnEvent('comment.created')
  async onCommentCreated(@Payload() event: EventEnvelope<'comment.created'>): Promise<void> {
    const p = event.payload;
    await this.notifier.notify({
      eventId: event.id,
      type: 'comment',
      recipientId: p.reviewAuthorId,
      actorId: p.userId,
      subjectId: p.commentId,
    });
  }

  /** A run of follows: each tells the followee, all in one `notifyMany`. */
  @OnEventBatch('follow.created')
  async onFollowsCreated(@Payload() events: EventEnvelope<'follow.created'>[]): Promise<void> {
    await this.notifier.notifyMany(
      events.map(({ id, payload: p }) => ({ eventId: id, type: 'new_follower', recipientId: p.followeeId, actorId: p.followerId, subjectId: p.followeeId, imported: p.imported })),
    );
  }

  @OnEvent('follow.requested')
  async onFollowRequested(@Payload() event: EventEnvelope<'follow.requested'>): Promise<void> {
    const p = event.payload;
    await this.notifier.notify({
      eventId: event.id,
      type: 'follow_request',
      recipientId: p.followeeId,
      actorId: p.followerId,
      subjectId: p.followeeId,
      imported: p.imported,
    });
  }

  /** The requester (followerId) learns that the followee said yes. */
  @OnEvent('follow.accepted')
  async onFollowAccepted(@Payload() event: EventEnvelope<'follow.accepted'>): Promise<void> {
    const p = event.payload;
    await this.notifier.notify({
      eventId: event.id,
      type: 'follow_accepted',
      recipientId: p.followerId,
      actorId: p.followeeId,
      subjectId: p.followerId,
    });
  }

  /**
   * A run of reviews, told to their authors' followers: the followers of all the authors are read
   * together a batch at a time, and each batch's notifications go in one `notifyMany`, in the
   * reviews' order.
   */
  @OnEventBatch('review.created')
  async onReviewsCreated(@Payload() events: EventEnvelope<'review.created'>[]): Promise<void> {
    for await (const follows of this.relations.followerBatches(events.map((e) => e.payload.authorId))) {
      const followers = new Map<string, string[]>();
      for (const f of follows) {
        const list = followers.get(f.followee_id);
        if (list) list.push(f.follower_id);
        else followers.set(f.followee_id, [f.follower_id]);
      }
      await this.notifier.notifyMany(
        events.flatMap(({ id, payload: p }) =>
          (followers.get(p.authorId) ?? []).map((recipientId) => ({ eventId: id, type: 'new_review' as const, recipientId, actorId: p.authorId, subjectId: p.reviewId })),
        ),
      );
    }
  }

  @OnEvent('squad.join_requested')
  async onJoinRequested(@Payload() event: EventEnvelope<'squad.join_requested'>): Promise<void> {
    const p = event.payload;
    await this.notifier.joinRequested(
      {
        eventId: event.id,
        type: 'squad_join_request',
        actorId: p.userId,
        subjectId: p.requestId,
        squadId: p.squadId,
        squadName: p.squadName,
      },
      p.managerIds,
    );
  }

  @OnEvent('squad.join_decided')
  async onJoinDecided(@Payload() event: EventEnvelope<'squad.join_decided'>): Promise<void> {
    const p = event.payload;
    await this.notifier.joinRequestDecided(p.squadId, p.requestId, event.occurredAt);
    await this.notifier.notify({
      eventId: event.id,
      type: p.decision === 'approved' ? 'squad_join_approved' : 'squad_join_rejected',
      recipientId: p.userId,
      actorId: p.decidedBy,
      subjectId: p.requestId,
      squadId: p.squadId,
      squadName: p.squadName,
    });
  }

  /** A renamed squad is renamed in the notifications about it too. */
  @OnEvent('squad.updated')
  async onSquadUpdated(@Payload() event: EventEnvelope<'squad.updated'>): Promise<void> {
    await this.notifier.squadRenamed(event.payload.squadId, event.payload.name, event.payload.updated_at);
  }

  /**
   * Squad chat @mentions: the message names the members to tell (an edit only the newly named).
   * A message naming nobody is not this service's business: no inbox row, no commit.
   */
  @OnEvent('message.sent', { when: (event) => event.payload.mentions !== undefined })
  async onMessageSent(@Payload() event: EventEnvelope<'message.sent'>): Promise<void> {
    await this.notifyMentioned(event.id, event.payload.messageId, event.payload.senderId, event.payload.mentions);
  }

  @OnEvent('message.edited', { when: (event) => event.payload.mentions !== undefined })
  async onMessageEdited(@Payload() event: EventEnvelope<'message.edited'>): Promise<void> {
    await this.notifyMentioned(event.id, event.payload.messageId, event.payload.senderId, event.payload.mentions);
  }

  @OnEvent('block.created')
  async onBlockCreated(@Payload() event: EventEnvelope<'block.created'>): Promise<void> {
    await this.notifier.forgetBetween(event.payload.blockerId, event.payload.blockedId);
  }

  private async notifyMentioned(eventId: string, messageId: string, senderId: string, mentions?: MessageMentions): Promise<void> {
    if (!mentions) return;
    await this.notifier.notifyAll(
      { eventId, type: 'squad_mention', actorId: senderId, subjectId: messageId, squadId: mentions.squadId, squadName: mentions.squadName },
      mentions.userIds,
    );
  }
}
