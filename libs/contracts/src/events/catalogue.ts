/**
 * The whole event catalogue (ARCHITECTURE §6): one map from event name to payload.
 * Emitters, bus handlers and socket pushes all type their payload from here.
 */
export interface EventPayloads {
  'user.registered': {
    userId: string;
    username: string;
    email: string;
    display_name: string;
    name: string;
    profile_image_url: string | null;
    created_at: string;
  };
  'user.updated': {
    userId: string;
    username: string;
    display_name: string;
    bio: string;
    profile_image_url: string | null;
  };
  /** Beyond ARCHITECTURE §6: carries the privacy and notification preferences to the services that honour them. */
  'user.settings_updated': {
    userId: string;
    notification_email: boolean;
    notification_push: boolean;
    privacy_profile: 'public' | 'friends' | 'private';
    theme: 'light' | 'dark' | 'system';
  };
  /**
   * Beyond ARCHITECTURE §6: the member logged out or changed their password; every token whose
   * `ver` claim is below `version` is revoked (the gateways cut them off and close their sockets).
   */
  'auth.sessions_revoked': { userId: string; version: number };
  /** A follow now exists without approval (public account). */
  'follow.created': { followerId: string; followeeId: string };
  /** A follow request waits for the followee's approval. */
  'follow.requested': { followerId: string; followeeId: string };
  /** The followee approved: a follow now exists (followerId is the requester). */
  'follow.accepted': { followerId: string; followeeId: string };
  /** A follow or a pending request ended (unfollow, cancel, reject, removal, block). */
  'follow.removed': { followerId: string; followeeId: string; wasPending: boolean };
  'block.created': { blockerId: string; blockedId: string };
  'block.removed': { blockerId: string; blockedId: string };
  'product.created': {
    productId: string;
    slug: string;
    name: string;
    category: string;
    image: string | null;
    userId: string;
  };
  'review.created': {
    reviewId: string;
    authorId: string;
    productId: string | null;
    productName: string | null;
    rating: number | null;
    title: string;
    excerpt: string;
    created_at: string;
  };
  'review.updated': { reviewId: string; authorId: string; productId: string | null; rating: number | null };
  'review.deleted': { reviewId: string; authorId: string; productId: string | null };
  'review.liked': { reviewId: string; reviewAuthorId: string; userId: string; likeCount: number };
  'review.unliked': { reviewId: string; reviewAuthorId: string; userId: string; likeCount: number };
  'comment.created': {
    commentId: string;
    reviewId: string;
    reviewAuthorId: string;
    userId: string;
    excerpt: string;
  };
  'squad.created': { squadId: string; name: string; category: string; creatorId: string };
  /**
   * Beyond ARCHITECTURE §6: the name or category changed (a description-only edit is not
   * announced), so the squad chat and other copies of the name follow a rename. `updated_at`
   * is the squad's: a copy keeps the newest and ignores an older rename arriving late.
   */
  'squad.updated': { squadId: string; name: string; category: string; updated_at: string };
  /** Beyond ARCHITECTURE §6: lets messaging close the squad chat and social drop the squad from stats. */
  'squad.deleted': { squadId: string; name: string; memberIds: string[] };
  'squad.join_requested': {
    squadId: string;
    squadName: string;
    requestId: string;
    userId: string;
    message: string | null;
    /** Admins and moderators at the time of the request: the ones to tell. */
    managerIds: string[];
  };
  'squad.join_decided': {
    squadId: string;
    squadName: string;
    requestId: string;
    userId: string;
    decision: 'approved' | 'rejected';
    decidedBy: string;
  };
  'squad.member_joined': {
    squadId: string;
    squadName: string;
    userId: string;
    role: 'admin' | 'moderator' | 'member';
    joined_at: string;
  };
  'squad.member_left': { squadId: string; squadName: string; userId: string; reason: 'left' | 'removed' };
  'conversation.created': {
    conversationId: string;
    memberIds: string[];
    createdBy: string;
    squadId: string | null;
  };
  'message.sent': {
    messageId: string;
    conversationId: string;
    senderId: string;
    memberIds: string[];
    /** The message exactly as GET /messages/conversations/{id}/messages shows it. */
    message: {
      id: string;
      conversation_id: string;
      sender_id: string;
      sender: { id: string; display_name: string; username: string; profile_image_url: string | null };
      content: string;
      created_at: string;
    };
  };
  'notification.created': {
    notificationId: string;
    recipientId: string;
    /** False when the recipient turned push off: stored, not pushed. */
    push: boolean;
    notification: {
      id: string;
      type: string;
      message: string;
      is_read: boolean;
      created_at: string;
      related_user: { id: string; display_name: string; username: string; profile_image_url: string | null } | null;
    };
  };
}

export type EventType = keyof EventPayloads;

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
  'conversation.created',
  'message.sent',
  'notification.created',
] as const satisfies readonly EventType[];

// Compile-time check that the list above names every key of EventPayloads.
type Missing = Exclude<EventType, (typeof EVENT_TYPES)[number]>;
const everyEventListed: Missing extends never ? true : Missing = true;
void everyEventListed;
