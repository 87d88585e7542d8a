import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/ui';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useDecideFollowRequestMutation, useFollowRequestsQuery } from '../people/peopleApi';

/** Incoming follow requests of a private or friends-only account, accepted or rejected here. */
export function FollowRequests({ compact }: { compact?: boolean }) {
  const t = useT();
  const { data, isLoading } = useFollowRequestsQuery();
  const [decide, state] = useDecideFollowRequestMutation();
  if (isLoading) return compact ? null : <p className="muted">{t('common.loading')}</p>;
  if (!data || data.length === 0) return compact ? null : <p className="muted">{t('profile.requestsNone')}</p>;
  return (
    <div className={compact ? 'card' : undefined} data-testid="follow-requests">
      {compact && <h2 className="panel-title">{t('profile.requestsTitle', { count: data.length })}</h2>}
      {data.map((p) => (
        <div key={p.id} className="person-item">
          <Avatar src={p.profile_image_url} name={personName(p)} size={40} />
          <div style={{ flex: 1 }}>
            <Link to={`/user/${p.username}`} className="strong">
              {personName(p)}
            </Link>
            <div className="muted small">@{p.username}</div>
          </div>
          <button className="btn btn-sm btn-primary" disabled={state.isLoading} onClick={() => decide({ userId: p.id, action: 'accept' })}>
            {t('profile.accept')}
          </button>
          <button className="btn btn-sm" disabled={state.isLoading} onClick={() => decide({ userId: p.id, action: 'reject' })}>
            {t('profile.reject')}
          </button>
        </div>
      ))}
    </div>
  );
}
