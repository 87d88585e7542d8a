import { Link } from 'react-router-dom';
import { MessageCircle } from 'lucide-react';
import { useConversationsQuery } from './messagesApi';
import { useIdle } from '../../shared/useIdle';
import { useT } from '../../shared/i18n';

/**
 * The top bar's Messages link with the unread total (polled each minute; pushes refresh it sooner),
 * asked once the first screen is drawn.
 */
export function MessagesLink() {
  const t = useT();
  const { data } = useConversationsQuery(undefined, { pollingInterval: 60_000, skip: !useIdle() });
  const unread = (data ?? []).reduce((n, c) => n + (c.unread_count), 0);
  return (
    <Link className="icon-btn bell" to="/messages" data-testid="messages-link">
      <MessageCircle size={20} aria-hidden="true" />
      <span className="sr-only">{t('nav.messages')}</span>
      {unread > 0 && <span className="badge">{unread > 99 ? '99+' : unread}</span>}
    </Link>
  );
}
