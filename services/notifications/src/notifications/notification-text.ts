import { NotificationType, UserCard } from '@app/contracts';

/** Shown in place of a name this service has not heard of yet. */
export const UNKNOWN_ACTOR = 'Someone';

/** The notification's sentence, as the dropdown and the notifications screen show it. */
export function notificationMessage(type: NotificationType, actor: UserCard | null, squadName: string | null): string {
  const name = actor?.display_name || actor?.username || UNKNOWN_ACTOR;
  const squad = squadName || 'your squad';
  switch (type) {
    case 'review_liked':
      return `${name} liked your review`;
    case 'comment':
      return `${name} commented on your review`;
    case 'new_follower':
      return `${name} started following you`;
    case 'follow_request':
      return `${name} sent you a follow request`;
    case 'follow_accepted':
      return `${name} accepted your follow request`;
    case 'new_review':
      return `${name} posted a new review`;
    case 'squad_join_request':
      return `${name} wants to join ${squad}`;
    case 'squad_join_approved':
      return `${name} approved your request to join ${squad}`;
    case 'squad_join_rejected':
      return `${name} declined your request to join ${squad}`;
  }
}

/**
 * Worth an email: what asks for an answer or is about the member directly. Likes and
 * followees' new reviews come in numbers that would flood an inbox; they stay in the app.
 */
export const EMAIL_WORTHY: ReadonlySet<NotificationType> = new Set<NotificationType>([
  'comment',
  'new_follower',
  'follow_request',
  'follow_accepted',
  'squad_join_request',
  'squad_join_approved',
  'squad_join_rejected',
]);

export function notificationEmail(recipientName: string | null, message: string): { subject: string; body: string } {
  return {
    subject: message,
    body: [
      `Hi ${recipientName || 'there'},`,
      '',
      `${message}.`,
      '',
      'Sign in to see it. You can turn these emails off under Settings > Notifications.',
    ].join('\n'),
  };
}
