import { notificationIcon } from './notificationMeta';

export function NotificationTypeIcon({ type, size = 14 }: { type: string; size?: number }) {
  const Icon = notificationIcon(type);
  return <Icon size={size} aria-hidden="true" className="inline-icon" />;
}
