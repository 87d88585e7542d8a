import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { LANGUAGES, type Language } from '../auth/language';
import { PRIVACY_VALUES, THEME_VALUES } from '../social/settings.dto';
import type { PrivacyProfile } from '../social/profile.dto';
import type { Theme } from '../social/settings.dto';
import { SQUAD_ROLES, type SquadRole } from '../squads/squads.dto';

/*
 * The whole event catalogue (ARCHITECTURE §6): one class per event payload, and one map from
 * event name to that class. The class is both the compile-time type (emitters, bus handlers and
 * socket pushes type their payload from `EventPayloads`) and the rules `BusServer` checks
 * every consumed payload against (class-validator, as the HTTP DTOs).
 */

/** The field must be present: null, or valid under the rules below it. */
const Nullable = () => ValidateIf((_object: object, value: unknown) => value !== null);
/** Decorators for a present array of strings. */
const StringArray = () => (target: object, key: string) => {
  IsArray()(target, key);
  IsString({ each: true })(target, key);
};

export class UserRegisteredPayload {
  @IsString() userId!: string;
  @IsString() username!: string;
  @IsString() email!: string;
  @IsString() display_name!: string;
  @IsString() name!: string;
  @Nullable() @IsString() profile_image_url!: string | null;
  @IsDateString() created_at!: string;
  /** The account's language (the newcomer's at sign-up). Optional: events stored before it existed lack it (the default). */
  @IsOptional() @IsIn(LANGUAGES) language?: Language;
  /** Site role at registration (issue 22 §3); absent in events from before roles: member. */
  @IsOptional() @IsIn(['member', 'moderator', 'admin']) role?: 'member' | 'moderator' | 'admin';
}

export class UserUpdatedPayload {
  @IsString() userId!: string;
  @IsString() username!: string;
  @IsString() display_name!: string;
  @IsString() bio!: string;
  @Nullable() @IsString() profile_image_url!: string | null;
}

/** Beyond ARCHITECTURE §6: carries the privacy and notification preferences to the services that honour them. */
export class UserSettingsUpdatedPayload {
  @IsString() userId!: string;
  @IsBoolean() notification_email!: boolean;
  @IsBoolean() notification_push!: boolean;
  @IsIn(PRIVACY_VALUES) privacy_profile!: PrivacyProfile;
  @IsIn(THEME_VALUES) theme!: Theme;
  /** The member's language, for what is written to them (emails, notifications). Optional: older events lack it. */
  @IsOptional() @IsIn(LANGUAGES) language?: Language;
}

/**
 * Beyond ARCHITECTURE §6: the member logged out or changed their password; every token whose
 * `ver` claim is below `version` is revoked (the gateways cut them off and close their sockets).
 */
export class SessionsRevokedPayload {
  @IsString() userId!: string;
  @IsInt() version!: number;
}

/** The two members of a follow or a follow request. */
export class FollowEdgePayload {
  @IsString() followerId!: string;
  @IsString() followeeId!: string;
}

/** follow.created: a follow now exists without approval (public account). follow.requested: it
 * waits for the followee's approval. follow.accepted: approved (followerId is the requester). */
export class FollowPayload extends FollowEdgePayload {
  /** True when an import made it (docs/decisions/import.md): a relationship moved over, not news, so nobody is emailed about it. Absent: made live. */
  @IsOptional() @IsBoolean() imported?: boolean;
}

/** A follow or a pending request ended (unfollow, cancel, reject, removal, block). */
export class FollowRemovedPayload extends FollowEdgePayload {
  @IsBoolean() wasPending!: boolean;
}

export class BlockPayload {
  @IsString() blockerId!: string;
  @IsString() blockedId!: string;
}

/** One-way and silent: only the muter's own reads and notifications change; the muted member is never told. */
export class MutePayload {
  @IsString() muterId!: string;
  @IsString() mutedId!: string;
}

export class ProductCreatedPayload {
  @IsString() productId!: string;
  @IsString() slug!: string;
  @IsString() name!: string;
  @IsString() category!: string;
  @Nullable() @IsString() image!: string | null;
  @IsString() userId!: string;
}

export class ReviewCreatedPayload {
  @IsString() reviewId!: string;
  @IsString() authorId!: string;
  @Nullable() @IsString() productId!: string | null;
  @Nullable() @IsString() productName!: string | null;
  @Nullable() @IsNumber() rating!: number | null;
  @IsString() title!: string;
  @IsString() excerpt!: string;
  @IsDateString() created_at!: string;
  /** Stored tag forms (issue 21 §6); absent on events recorded before tags: none. */
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

export class ReviewDeletedPayload {
  @IsString() reviewId!: string;
  @IsString() authorId!: string;
  @Nullable() @IsString() productId!: string | null;
}

export class ReviewUpdatedPayload extends ReviewDeletedPayload {
  @Nullable() @IsNumber() rating!: number | null;
  /** The tags after the edit (issue 21 §6); absent on events recorded before tags. */
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

/** review.liked and review.unliked: `likeCount` is the count after the change. */
export class ReviewLikePayload {
  @IsString() reviewId!: string;
  @IsString() reviewAuthorId!: string;
  @IsString() userId!: string;
  @IsInt() likeCount!: number;
}

export class CommentCreatedPayload {
  @IsString() commentId!: string;
  @IsString() reviewId!: string;
  @IsString() reviewAuthorId!: string;
  @IsString() userId!: string;
  @IsString() excerpt!: string;
}

export class SquadCreatedPayload {
  @IsString() squadId!: string;
  @IsString() name!: string;
  @IsString() category!: string;
  @IsString() creatorId!: string;
}

/**
 * Beyond ARCHITECTURE §6: the name or category changed (a description-only edit is not
 * announced), so the squad chat and other copies of the name follow a rename. `updated_at`
 * is the squad's: a copy keeps the newest and ignores an older rename arriving late.
 */
export class SquadUpdatedPayload {
  @IsString() squadId!: string;
  @IsString() name!: string;
  @IsString() category!: string;
  @IsDateString() updated_at!: string;
}

/** Beyond ARCHITECTURE §6: lets messaging close the squad chat and social drop the squad from stats. */
export class SquadDeletedPayload {
  @IsString() squadId!: string;
  @IsString() name!: string;
  @StringArray() memberIds!: string[];
}

export class SquadJoinRequestedPayload {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @IsString() requestId!: string;
  @IsString() userId!: string;
  @Nullable() @IsString() message!: string | null;
  /** Admins and moderators at the time of the request: the ones to tell. */
  @StringArray() managerIds!: string[];
}

export class SquadJoinDecidedPayload {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @IsString() requestId!: string;
  @IsString() userId!: string;
  @IsIn(['approved', 'rejected']) decision!: 'approved' | 'rejected';
  @IsString() decidedBy!: string;
  /** Admins and moderators after the decision: their open request lists follow it live. Optional so version 1 still reads. */
  @IsOptional() @StringArray() managerIds?: string[];
}

export class SquadMemberJoinedPayload {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @IsString() userId!: string;
  @IsIn(SQUAD_ROLES) role!: SquadRole;
  @IsDateString() joined_at!: string;
}

/** A squad admin changed a member's squad role; the member and the squad's managers see it live. */
export class SquadMemberRoleChangedPayload {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @IsString() userId!: string;
  @IsIn(SQUAD_ROLES) role!: SquadRole;
  @IsString() changedBy!: string;
  /** Admins and moderators after the change. */
  @StringArray() managerIds!: string[];
}

export class SquadMemberLeftPayload {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @IsString() userId!: string;
  @IsIn(['left', 'removed']) reason!: 'left' | 'removed';
}

export class ConversationCreatedPayload {
  @IsString() conversationId!: string;
  @StringArray() memberIds!: string[];
  @IsString() createdBy!: string;
  @Nullable() @IsString() squadId!: string | null;
}

/** A member as another service's reply shows them (`UserCard`). */
export class EventUserCard {
  @IsString() id!: string;
  @IsString() display_name!: string;
  @IsString() username!: string;
  @Nullable() @IsString() profile_image_url!: string | null;
}

/** The message exactly as GET /messages/conversations/{id}/messages shows it. */
export class SentMessage {
  @IsString() id!: string;
  @IsString() conversation_id!: string;
  @IsString() sender_id!: string;
  @IsObject() @ValidateNested() @Type(() => EventUserCard) sender!: EventUserCard;
  @IsString() content!: string;
  @IsDateString() created_at!: string;
  // Added with edits, deletes and reactions; optional so version 1 still reads.
  @IsOptional() @Nullable() @IsDateString() edited_at?: string | null;
  @IsOptional() @IsBoolean() deleted?: boolean;
  @IsOptional() @IsArray() reactions?: unknown[];
  // Added with image attachments; optional so version 1 still reads.
  @IsOptional() @IsArray() attachments?: { url: string; alt: string | null }[];
}

/**
 * Squad chat @mentions (issue 22 §4): the members to notify, each once per message. Optional on
 * message.sent and message.edited so version 1 still reads; an edit carries only the newly mentioned.
 */
export class MessageMentions {
  @IsString() squadId!: string;
  @IsString() squadName!: string;
  @StringArray() userIds!: string[];
}

export class MessageSentPayload {
  @IsString() messageId!: string;
  @IsString() conversationId!: string;
  @IsString() senderId!: string;
  @StringArray() memberIds!: string[];
  @IsObject() @ValidateNested() @Type(() => SentMessage) message!: SentMessage;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => MessageMentions) mentions?: MessageMentions;
  /** The squad whose chat it is (squads counts its messages of the week); added with squad stats, optional so version 1 still reads. */
  @IsOptional() @IsString() squadId?: string;
}

/** The sender changed the text; the gateway pushes `message-updated` to every member. */
export class MessageEditedPayload {
  @IsString() messageId!: string;
  @IsString() conversationId!: string;
  @IsString() senderId!: string;
  @StringArray() memberIds!: string[];
  @IsString() content!: string;
  @IsDateString() editedAt!: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => MessageMentions) mentions?: MessageMentions;
}

/** The sender deleted the message; it stays as a blank tombstone (`message-deleted`). */
export class MessageDeletedPayload {
  @IsString() messageId!: string;
  @IsString() conversationId!: string;
  @IsString() senderId!: string;
  @StringArray() memberIds!: string[];
  @IsDateString() deletedAt!: string;
}

export class ReactionCount {
  @IsString() emoji!: string;
  @IsInt() count!: number;
}

/** A member added or removed a reaction; `reactions` are the counts after it (`message-reactions`). */
export class MessageReactionChangedPayload {
  @IsString() messageId!: string;
  @IsString() conversationId!: string;
  @IsString() userId!: string;
  @IsString() emoji!: string;
  @IsBoolean() added!: boolean;
  @StringArray() memberIds!: string[];
  @IsArray() @ValidateNested({ each: true }) @Type(() => ReactionCount) reactions!: ReactionCount[];
}

/**
 * A member read a conversation (read receipts, issue 22 §4). `isGroup`: the gateway tells only the
 * reader's own tabs (groups and squad chats show no receipts); a one-to-one tells both members.
 */
export class ConversationReadPayload {
  @IsString() conversationId!: string;
  @IsString() userId!: string;
  @StringArray() memberIds!: string[];
  @IsBoolean() isGroup!: boolean;
  @IsDateString() readAt!: string;
}

/** The stored notification as GET /notifications shows it. */
export class CreatedNotification {
  @IsString() id!: string;
  @IsString() type!: string;
  @IsString() message!: string;
  @IsBoolean() is_read!: boolean;
  @IsDateString() created_at!: string;
  @Nullable() @IsObject() @ValidateNested() @Type(() => EventUserCard) related_user!: EventUserCard | null;
}

export class NotificationCreatedPayload {
  @IsString() notificationId!: string;
  @IsString() recipientId!: string;
  /** False when the recipient turned push off: stored, not pushed. */
  @IsBoolean() push!: boolean;
  @IsObject() @ValidateNested() @Type(() => CreatedNotification) notification!: CreatedNotification;
}

/**
 * Beyond ARCHITECTURE §6 (issue 20 §5): the member deleted their account; auth has already
 * revoked every session and erased the credentials. Each service erases or anonymises what
 * belongs to the member (its erasure/ feature), idempotently and resumable after a crash.
 */
export class UserDeletedPayload {
  @IsString() userId!: string;
}

/**
 * moderation.role_changed: an admin set a member's site role, or auth made an ADMIN_EMAILS address
 * admin. Auth stores it for new tokens; every service applies it to the next request of tokens
 * already out (MemberStanding), and the gateway tells the member's tabs. Reviews keeps the staff
 * list from it.
 */
export class RoleChangedPayload {
  @IsString() userId!: string;
  @IsIn(['member', 'moderator', 'admin']) role!: 'member' | 'moderator' | 'admin';
}

/** moderation.member_suspended: auth refuses the member's login until `until` and revokes their tokens. */
export class MemberSuspendedPayload {
  @IsString() userId!: string;
  @IsDateString() until!: string;
  @IsString() reason!: string;
}

/** moderation.content_hidden: a moderator hid the member's review or comment; notifications tells its author. */
export class ContentHiddenPayload {
  @IsIn(['review', 'comment']) kind!: 'review' | 'comment';
  @IsString() contentId!: string;
  @IsString() authorId!: string;
  @IsString() reason!: string;
  /** Moderators and admins: the hide settles reports, so their open queues follow. Optional so version 1 still reads. */
  @IsOptional() @StringArray() staffIds?: string[];
}

/** moderation.report_filed: a member reported a review or a comment; the staff's open queues show it live. */
export class ReportFiledPayload {
  @IsString() reportId!: string;
  @IsString() reviewId!: string;
  @Nullable() @IsString() commentId!: string | null;
  @IsString() reporterId!: string;
  /** Moderators and admins at the time of the report. */
  @StringArray() staffIds!: string[];
}

/** moderation.report_dismissed: a moderator dismissed a report; it leaves every open queue. */
export class ReportDismissedPayload {
  @IsString() reportId!: string;
  @IsString() dismissedBy!: string;
  @StringArray() staffIds!: string[];
}

/**
 * moderation.content_shown: a moderator showed a hidden review or comment again; the services
 * that count the member's content (social's reviews count) count it again.
 */
export class ContentShownPayload {
  @IsIn(['review', 'comment']) kind!: 'review' | 'comment';
  @IsString() contentId!: string;
  @IsString() authorId!: string;
}

/** Event name to payload class: what `BusServer` validates a consumed payload against. */
export const EVENT_PAYLOAD_CLASSES = {
  'user.registered': UserRegisteredPayload,
  'user.updated': UserUpdatedPayload,
  'user.settings_updated': UserSettingsUpdatedPayload,
  'auth.sessions_revoked': SessionsRevokedPayload,
  'follow.created': FollowPayload,
  'follow.requested': FollowPayload,
  'follow.accepted': FollowPayload,
  'follow.removed': FollowRemovedPayload,
  'block.created': BlockPayload,
  'block.removed': BlockPayload,
  'mute.created': MutePayload,
  'mute.removed': MutePayload,
  'product.created': ProductCreatedPayload,
  'review.created': ReviewCreatedPayload,
  'review.updated': ReviewUpdatedPayload,
  'review.deleted': ReviewDeletedPayload,
  'review.liked': ReviewLikePayload,
  'review.unliked': ReviewLikePayload,
  'comment.created': CommentCreatedPayload,
  'squad.created': SquadCreatedPayload,
  'squad.updated': SquadUpdatedPayload,
  'squad.deleted': SquadDeletedPayload,
  'squad.join_requested': SquadJoinRequestedPayload,
  'squad.join_decided': SquadJoinDecidedPayload,
  'squad.member_joined': SquadMemberJoinedPayload,
  'squad.member_left': SquadMemberLeftPayload,
  'squad.member_role_changed': SquadMemberRoleChangedPayload,
  'conversation.created': ConversationCreatedPayload,
  'message.sent': MessageSentPayload,
  'message.edited': MessageEditedPayload,
  'message.deleted': MessageDeletedPayload,
  'message.reaction_changed': MessageReactionChangedPayload,
  'notification.created': NotificationCreatedPayload,
  'moderation.role_changed': RoleChangedPayload,
  'moderation.member_suspended': MemberSuspendedPayload,
  'moderation.content_hidden': ContentHiddenPayload,
  'moderation.content_shown': ContentShownPayload,
  'moderation.report_filed': ReportFiledPayload,
  'moderation.report_dismissed': ReportDismissedPayload,
  'conversation.read': ConversationReadPayload,
  'user.deleted': UserDeletedPayload,
} as const;

export type EventType = keyof typeof EVENT_PAYLOAD_CLASSES;

/** The payload of each event, typed by its class. */
export type EventPayloads = { [T in EventType]: InstanceType<(typeof EVENT_PAYLOAD_CLASSES)[T]> };

/**
 * The payload version each event is emitted with and the only one a consumer accepts. A change
 * an older reader would misread (a field renamed, removed or retyped) bumps it; consumers must be
 * deployed knowing the new version before any emitter sends it (ARCHITECTURE §6, DECISIONS).
 */
export const EVENT_VERSIONS = {
  'user.registered': 1,
  'user.updated': 1,
  'user.settings_updated': 1,
  'auth.sessions_revoked': 1,
  'follow.created': 1,
  'follow.requested': 1,
  'follow.accepted': 1,
  'follow.removed': 1,
  'block.created': 1,
  'block.removed': 1,
  'mute.created': 1,
  'mute.removed': 1,
  'product.created': 1,
  'review.created': 1,
  'review.updated': 1,
  'review.deleted': 1,
  'review.liked': 1,
  'review.unliked': 1,
  'comment.created': 1,
  'squad.created': 1,
  'squad.updated': 1,
  'squad.deleted': 1,
  'squad.join_requested': 1,
  'squad.join_decided': 1,
  'squad.member_joined': 1,
  'squad.member_left': 1,
  'squad.member_role_changed': 1,
  'conversation.created': 1,
  'message.sent': 1,
  'message.edited': 1,
  'message.deleted': 1,
  'message.reaction_changed': 1,
  'notification.created': 1,
  'moderation.role_changed': 1,
  'moderation.member_suspended': 1,
  'moderation.content_hidden': 1,
  'moderation.content_shown': 1,
  'moderation.report_filed': 1,
  'moderation.report_dismissed': 1,
  'conversation.read': 1,
  'user.deleted': 1,
} as const satisfies Record<EventType, number>;

export const EVENT_TYPES = [
  'user.registered',
  'user.updated',
  'user.settings_updated',
  'auth.sessions_revoked',
  'follow.created',
  'follow.requested',
  'follow.accepted',
  'follow.removed',
  'block.created',
  'block.removed',
  'mute.created',
  'mute.removed',
  'product.created',
  'review.created',
  'review.updated',
  'review.deleted',
  'review.liked',
  'review.unliked',
  'comment.created',
  'squad.created',
  'squad.updated',
  'squad.deleted',
  'squad.join_requested',
  'squad.join_decided',
  'squad.member_joined',
  'squad.member_left',
  'squad.member_role_changed',
  'conversation.created',
  'message.sent',
  'message.edited',
  'message.deleted',
  'message.reaction_changed',
  'notification.created',
  'moderation.role_changed',
  'moderation.member_suspended',
  'moderation.content_hidden',
  'moderation.content_shown',
  'moderation.report_filed',
  'moderation.report_dismissed',
  'conversation.read',
  'user.deleted',
] as const satisfies readonly EventType[];

// Compile-time check that the list above names every key of EventPayloads.
type Missing = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const everyEventListed: Missing extends never ? true : Missing = true;
void everyEventListed;
