import { AtSign, Bell, EyeOff, Handshake, Heart, MessageCircle, Star, UserPlus, UserRoundPlus, type LucideIcon } from 'lucide-react';
import type { NotificationView } from '@app/contracts';

/** Type icons of the notification list (part 1 §2). */
export function notificationIcon(type: string): LucideIcon {
  switch (type) {
    case 'review_liked':
      return Heart;
    case 'comment':
      return MessageCircle;
    case 'new_follower':
      return UserPlus;
    case 'follow_request':
      return UserRoundPlus;
    case 'follow_accepted':
      return Handshake;
    case 'new_review':
      return Star;
    case 'review_hidden':
    case 'comment_hidden':
      return EyeOff;
    case 'squad_mention':
      return AtSign;
    default:
      return Bell;
  }
}

/**
 * Where a notification leads: a squad's join requests for a "wants to join", its chat for a mention,
 * the squad, a follow request list, the actor.
 */
export function notificationTarget(n: NotificationView): string {
  const squadId = n.squad_id;
  if (squadId && n.type === 'squad_join_request') return `/squads/${squadId}?requests=1`;
  if (squadId && n.type === 'squad_mention') return `/squads/${squadId}?chat=1`;
  if (squadId) return `/squads/${squadId}`;
  if (n.type === 'follow_request') return '/profile?tab=requests';
  if (n.type === 'review_hidden' || n.type === 'comment_hidden') return '/notifications';
  if (n.related_user?.username) return `/user/${n.related_user.username}`;
  return '/notifications';
}

/** The message after the actor's name: the service already starts its text with the name, shown bold beside it. */
export function messageAfterName(message: string, name: string): string {
  const text = message ?? '';
  // 'Burak wants to join…', and in Turkish 'Burak, Kahve topluluğuna…': the words after the name
  if (name && text.startsWith(name)) return text.slice(name.length).replace(/^,?\s*/, '');
  return text;
}
