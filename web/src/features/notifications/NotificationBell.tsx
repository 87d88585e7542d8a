import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Avatar } from '../../shared/ui';
import { useClickOutside } from '../../shared/useClickOutside';
import { useIdle } from '../../shared/useIdle';
import { bellBadge, panelBadge, personName, shortAgo } from '../../shared/format';
import { Bell } from 'lucide-react';
import { messageAfterName, notificationTarget } from './notificationMeta';
import { NotificationTypeIcon } from './NotificationTypeIcon';
import { useMarkAllReadMutation, useMarkReadMutation, useNotificationsQuery, useUnreadCountQuery } from './notificationsApi';
import { useT } from '../../shared/i18n';

/** Where a click on a notification leads. */
export function NotificationBell() {
  const t = useT();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  // counts refresh every 30 s; a pushed `notification` is written into both at once (app/realtime.ts)
  const count = useUnreadCountQuery(undefined, { pollingInterval: 30_000 });
  // the dropdown's list waits until the first screen is drawn (or the bell is opened)
  const idle = useIdle();
  const list = useNotificationsQuery({ page: 1, limit: 5 }, { pollingInterval: 30_000, skip: !idle && !open });
  const [markRead] = useMarkReadMutation();
  const [markAll] = useMarkAllReadMutation();
  const unread = count.data ?? 0;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  // scrolling to the bottom (10 px tolerance) marks all read after 1 s
  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= 10;
    if (atEnd && unread > 0 && !timer.current) {
      timer.current = setTimeout(() => {
        timer.current = null;
        void markAll();
      }, 1000);
    }
  };

  const items = list.data?.items ?? [];

  return (
    <div className="bell-wrap" ref={ref}>
      <button className="icon-btn bell" data-testid="bell" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Bell size={20} aria-hidden="true" />
        {/* a hidden name rather than aria-label, so the visible badge is part of the name */}
        <span className="sr-only">{t('notifications.title')}</span>
        {unread > 0 && (
          <span className="badge" data-testid="bell-badge">
            {bellBadge(unread)}
          </span>
        )}
      </button>
      {open && (
        <div className="dropdown notif-dropdown" data-testid="notif-dropdown">
          <div className="dropdown-header">
            <span className="strong">
              {t('notifications.title')}{' '}
              {unread > 0 && (
                <span className="badge badge-inline" data-testid="panel-badge">
                  {panelBadge(unread)}
                </span>
              )}
            </span>
            {unread > 0 && (
              <button className="link small" onClick={() => void markAll()}>
                {t('notifications.markAllShort')}
              </button>
            )}
          </div>
          <div className="notif-scroll" onScroll={onScroll}>
            {items.length === 0 && !list.isLoading && <div className="dropdown-empty">{t('notifications.empty')}</div>}
            {items.map((n) => (
              <button
                key={n.id}
                className={`notif-item ${n.is_read ? '' : 'unread'}`}
                data-testid="notif-item"
                onClick={() => {
                  if (!n.is_read) void markRead(n.id);
                  setOpen(false);
                  navigate(notificationTarget(n));
                }}
              >
                <Avatar src={n.related_user?.profile_image_url} name={personName(n.related_user)} size={36} />
                <span className="notif-body">
                  <span>
                    <span className="strong">{personName(n.related_user)}</span> {messageAfterName(n.message, personName(n.related_user))}
                  </span>
                  <span className="muted small">{shortAgo(n.created_at)}</span>
                </span>
                <span className="notif-icon" aria-hidden>
                  <NotificationTypeIcon type={n.type} />
                </span>
              </button>
            ))}
          </div>
          <Link className="dropdown-footer link" to="/notifications" onClick={() => setOpen(false)}>
            {t('notifications.viewAll')}
          </Link>
        </div>
      )}
    </div>
  );
}
