import { Link } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { Avatar, Skeleton } from '../../shared/ui';
import { personName, shortAgo } from '../../shared/format';
import { Check, Trash2 } from 'lucide-react';
import { messageAfterName } from './notificationMeta';
import { NotificationTypeIcon } from './NotificationTypeIcon';
import { useDeleteNotificationMutation, useMarkAllReadMutation, useMarkReadMutation, useNotificationsQuery, useUnreadCountQuery } from './notificationsApi';
import { useDecideFollowRequestMutation } from '../people/peopleApi';
import { useT } from '../../shared/i18n';

export function NotificationsPage() {
  const t = useT();
  const list = useNotificationsQuery({ page: 1, limit: 50 }, { pollingInterval: 30_000 });
  const count = useUnreadCountQuery();
  const [markRead] = useMarkReadMutation();
  const [markAll] = useMarkAllReadMutation();
  const [del] = useDeleteNotificationMutation();
  const [decide, decideState] = useDecideFollowRequestMutation();
  const unread = list.data?.unread_count ?? count.data ?? 0;

  return (
    <div className="page" data-testid="notifications-page">
      <div className="page-head">
        <h1 className="page-title">{t('notifications.title')}</h1>
        {unread > 0 && (
          <button className="btn" onClick={() => void markAll()}>
            {t('notifications.markAll')}
          </button>
        )}
      </div>
      {list.isLoading && <Skeleton />}
      {list.isError && (
        <div className="card error-box">
          <p className="error-text">{errorMessage(list.error, t('notifications.loadFailed'))}</p>
          <button className="btn" onClick={() => list.refetch()}>
            {t('notifications.retry')}
          </button>
        </div>
      )}
      {list.data && list.data.items.length === 0 && <div className="card empty">{t('notifications.empty')}</div>}
      {list.data && list.data.items.length > 0 && (
        <div className="card" style={{ padding: 0 }}>
          {list.data.items.map((n) => (
            <div key={n.id} className={`notif-item ${n.is_read ? '' : 'unread'}`} data-testid="notification-row" style={{ cursor: 'default' }}>
              <Avatar src={n.related_user?.profile_image_url} name={personName(n.related_user)} size={40} />
              <div className="notif-body">
                <span>
                  {n.related_user?.username ? (
                    <Link to={`/user/${n.related_user.username}`} className="strong">
                      {personName(n.related_user)}
                    </Link>
                  ) : (
                    <span className="strong">{personName(n.related_user)}</span>
                  )}{' '}
                  {messageAfterName(n.message, personName(n.related_user))}
                </span>
                <span className="muted small">
                  <NotificationTypeIcon type={n.type} /> {shortAgo(n.created_at)}
                </span>
                {n.type === 'follow_request' && n.related_user?.id && (
                  <span className="row gap" style={{ marginTop: 4 }}>
                    <button
                      className="btn btn-sm btn-primary"
                      disabled={decideState.isLoading}
                      onClick={async () => {
                        await decide({ userId: n.related_user!.id!, action: 'accept' });
                        if (!n.is_read) void markRead(n.id);
                      }}
                    >
                      {t('profile.accept')}
                    </button>
                    <button
                      className="btn btn-sm"
                      disabled={decideState.isLoading}
                      onClick={async () => {
                        await decide({ userId: n.related_user!.id!, action: 'reject' });
                        if (!n.is_read) void markRead(n.id);
                      }}
                    >
                      {t('profile.reject')}
                    </button>
                  </span>
                )}
              </div>
              {!n.is_read && (
                <button className="icon-btn small" title={t('notifications.markRead')} aria-label={t('notifications.markRead')} onClick={() => void markRead(n.id)}>
                  <Check size={16} aria-hidden="true" />
                </button>
              )}
              <button className="icon-btn small" title={t('notifications.delete')} aria-label={t('notifications.delete')} onClick={() => void del(n.id)}>
                <Trash2 size={16} aria-hidden="true" />
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
