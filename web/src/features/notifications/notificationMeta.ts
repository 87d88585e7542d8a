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
