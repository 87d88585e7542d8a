import { DEFAULT_LANGUAGE, Language, NotificationType, UserCard } from '@app/contracts';

/** Shown in place of a name this service has not heard of yet, per language. */
export const UNKNOWN_ACTOR = 'Someone';
const UNKNOWN: Record<Language, string> = { en: UNKNOWN_ACTOR, tr: 'Birisi' };

type Sentence = (type: NotificationType, name: string, squad: string | null, reason: string) => string;

/** The sentence of each type, per language: what the app shows, pushes and mails (the member's language). */
const SENTENCES: Record<Language, Sentence> = {
  en: (type, name, squadName, reason) => {
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
        return `A moderator hid your review: ${reason}`;
      case 'comment_hidden':
        return `A moderator hid your comment: ${reason}`;
      case 'squad_mention':
        return `${name} mentioned you in ${squad} chat`;
    }
  },
  tr: (type, name, squadName, reason) => {
    const toSquad = squadName ? `${squadName} topluluğuna` : "squad'ına";
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
        return `${name}, ${toSquad} katılmak istiyor`;
      case 'squad_join_approved':
        return `${name}, ${toSquad} katılma isteğini onayladı`;
      case 'squad_join_rejected':
        return `${name}, ${toSquad} katılma isteğini reddetti`;
      case 'review_hidden':
        return `Bir moderatör incelemeni gizledi: ${reason}`;
      case 'comment_hidden':
        return `Bir moderatör yorumunu gizledi: ${reason}`;
      case 'squad_mention':
        return `${name}, ${squadName || 'squad'} sohbetinde senden bahsetti`;
    }
  },
};

/** The notification's sentence in the recipient's language, as the dropdown, the notifications screen and the push show it. */
export function notificationMessage(
  type: NotificationType,
  actor: UserCard | null,
  squadName: string | null,
  reason?: string,
  language: Language = DEFAULT_LANGUAGE,
): string {
  const name = actor?.display_name || actor?.username || UNKNOWN[language];
  return SENTENCES[language](type, name, squadName, reason ?? '');
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

const EMAIL_FRAME: Record<Language, { hi: (name: string | null) => string; footer: string }> = {
  en: { hi: (name) => `Hi ${name || 'there'},`, footer: 'Sign in to see it. You can turn these emails off under Settings > Notifications.' },
  tr: { hi: (name) => `Merhaba ${name || ''},`.replace(' ,', ','), footer: 'Görmek için giriş yap. Bu e-postaları Ayarlar > Bildirimler bölümünden kapatabilirsin.' },
};

/** The email of a notification in the recipient's language; a moderator's reason stays out of the subject. */
export function notificationEmail(
  language: Language,
  recipientName: string | null,
  type: NotificationType,
  actorName: string | null,
  squadName: string | null,
): { subject: string; body: string } {
  const message = SENTENCES[language](type, actorName || UNKNOWN[language], squadName, '').replace(/: $/, '');
  const frame = EMAIL_FRAME[language];
  return { subject: message, body: [frame.hi(recipientName), '', `${message}.`, '', frame.footer].join('\n') };
}
