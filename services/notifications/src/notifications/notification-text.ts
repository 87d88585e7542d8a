import { Language, NotificationType, UserCard } from '@app/contracts';

/** Shown in place of a name this service has not heard of yet. */
export const UNKNOWN_ACTOR = 'Someone';

/** The notification's sentence, as the dropdown and the notifications screen show it. */
export function notificationMessage(type: NotificationType, actor: UserCard | null, squadName: string | null, reason?: string): string {
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
    case 'review_hidden':
      return `A moderator hid your review: ${reason ?? ''}`;
    case 'comment_hidden':
      return `A moderator hid your comment: ${reason ?? ''}`;
    case 'squad_mention':
      return `${name} mentioned you in ${squad} chat`;
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
  'squad_mention',
]);

/** Email sentences per language; the app's own sentence (notificationMessage) stays English. */
const EMAIL_SENTENCES: Record<Language, (type: NotificationType, name: string, squad: string | null) => string> = {
  en: (type, name, squad) => notificationMessage(type, { display_name: name } as UserCard, squad),
  tr: (type, name, squad) => {
    const group = squad || 'topluluğun';
    switch (type) {
      case 'review_liked':
        return `${name} incelemeni beğendi`;
      case 'comment':
        return `${name} incelemene yorum yaptı`;
      case 'new_follower':
        return `${name} seni takip etmeye başladı`;
      case 'follow_request':
        return `${name} sana takip isteği gönderdi`;
      case 'follow_accepted':
        return `${name} takip isteğini kabul etti`;
      case 'new_review':
        return `${name} yeni bir inceleme paylaştı`;
      case 'squad_join_request':
        return `${name}, ${group} topluluğuna katılmak istiyor`;
      case 'squad_join_approved':
        return `${name}, ${group} topluluğuna katılma isteğini onayladı`;
      case 'squad_join_rejected':
        return `${name}, ${group} topluluğuna katılma isteğini reddetti`;
      case 'review_hidden':
        return 'Bir moderatör incelemeni gizledi';
      case 'comment_hidden':
        return 'Bir moderatör yorumunu gizledi';
      case 'squad_mention':
        return `${name}, ${group} sohbetinde senden bahsetti`;
    }
  },
};

const EMAIL_FRAME: Record<Language, { hi: (name: string | null) => string; footer: string }> = {
  en: { hi: (name) => `Hi ${name || 'there'},`, footer: 'Sign in to see it. You can turn these emails off under Settings > Notifications.' },
  tr: { hi: (name) => `Merhaba ${name || ''},`.replace(' ,', ','), footer: 'Görmek için giriş yap. Bu e-postaları Ayarlar > Bildirimler bölümünden kapatabilirsin.' },
};

/** The email of a notification in the recipient's language (Turkish unless they chose English). */
export function notificationEmail(
  language: Language,
  recipientName: string | null,
  type: NotificationType,
  actorName: string | null,
  squadName: string | null,
): { subject: string; body: string } {
  const message = EMAIL_SENTENCES[language](type, actorName || UNKNOWN_ACTOR, squadName);
  const frame = EMAIL_FRAME[language];
  return { subject: message, body: [frame.hi(recipientName), '', `${message}.`, '', frame.footer].join('\n') };
}
