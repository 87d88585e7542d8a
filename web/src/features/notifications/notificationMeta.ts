/** Type icons of the notification list (part 1 §2). */
export function notificationIcon(type: string): string {
  switch (type) {
    case 'review_liked':
      return '❤️';
    case 'comment':
      return '💬';
    case 'new_follower':
      return '👤';
    case 'follow_request':
      return '🙋';
    case 'follow_accepted':
      return '🤝';
    case 'new_review':
      return '⭐';
    default:
      return '🔔';
  }
}

/** The message after the actor's name: the service already starts its text with the name, shown bold beside it. */
export function messageAfterName(message: string, name: string): string {
  const text = message ?? '';
  if (name && text.startsWith(name)) return text.slice(name.length).trimStart();
  return text;
}
