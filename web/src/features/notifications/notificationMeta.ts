import { Bell, Handshake, Heart, MessageCircle, Star, UserPlus, UserRoundPlus, type LucideIcon } from 'lucide-react';

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
    default:
      return Bell;
  }
}

/** The message after the actor's name: the service already starts its text with the name, shown bold beside it. */
export function messageAfterName(message: string, name: string): string {
  const text = message ?? '';
  if (name && text.startsWith(name)) return text.slice(name.length).trimStart();
  return text;
}
