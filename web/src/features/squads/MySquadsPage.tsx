import { Link } from 'react-router-dom';
import { Crown, Shield, User, type LucideIcon } from 'lucide-react';
import { Avatar, Skeleton } from '../../shared/ui';
import { categoryName, memberLabel } from '../../shared/format';
import { useMySquadsQuery, useSquadStatsQuery } from './squadsApi';
import { useT } from '../../shared/i18n';
import { translate } from '../../shared/i18n';

export function RoleIcon({ role }: { role?: string | null }) {
  if (!role) return null;
  const map: Record<string, [LucideIcon, string]> = { admin: [Crown, 'role-admin'], moderator: [Shield, 'role-moderator'], member: [User, 'role-member'] };
  const [Icon, cls] = map[role] ?? map.member;
  const name = translate(`squads.role_${role in map ? (role as 'admin' | 'moderator' | 'member') : 'member'}`);
  return (
    <span className={cls} title={name} aria-label={name} role="img" data-testid="role-icon">
      <Icon size={20} aria-hidden="true" />
    </span>
  );
}

export function MySquadsPage() {
  const t = useT();
  const squads = useMySquadsQuery();
  const stats = useSquadStatsQuery();
  const s = stats.data;
  return (
    <div className="page" data-testid="my-squads">
      <div className="page-head">
        <h1 className="page-title">{t('squads.title')}</h1>
        <div className="row gap">
          <Link to="/explore?tab=squads" className="btn">
            {t('squads.explore')}
          </Link>
          <Link to="/create-squad" className="btn btn-primary">
            {t('squads.create')}
          </Link>
        </div>
      </div>
      <div className="grid grid-3">
        <div className="card stat-tile">
          <b>{s?.total_squads ?? squads.data?.length ?? 0}</b>
          <span className="muted">{t('squads.total')}</span>
        </div>
        <div className="card stat-tile">
          <b>{s?.admin_squads ?? 0}</b>
          <span className="muted">{t('squads.admin')}</span>
        </div>
        <div className="card stat-tile">
          <b>{s?.moderator_squads ?? 0}</b>
          <span className="muted">{t('squads.moderator')}</span>
        </div>
      </div>
      {squads.isLoading && <Skeleton />}
      {squads.isError && (
        <div className="error-bar">
          {t('squads.loadFailed')}{' '}
          <button className="link" onClick={() => squads.refetch()}>
            {t('common.tryAgain')}
          </button>
        </div>
      )}
      {squads.data?.length === 0 && (
        <div className="card empty">
          <p>{t('squads.none')}</p>
          <Link to="/explore?tab=squads" className="btn btn-primary">
            {t('squads.explore')}
          </Link>
        </div>
      )}
      <div className="grid grid-2">
        {squads.data?.map((sq) => (
          <div key={sq.id} className="card squad-card" data-testid="my-squad">
            <div className="row gap">
              <Avatar name={sq.name} size={44} />
              <div style={{ flex: 1, minWidth: 0 }}>
                <div className="strong ellipsis">
                  {sq.name} <RoleIcon role={sq.user_role} />
                </div>
                <div className="muted small">
                  {categoryName(sq.category)} · {memberLabel(sq.member_count)}
                </div>
              </div>
            </div>
            <p className="muted small" style={{ margin: 0 }}>
              {sq.description || t('squads.noDescription')}
            </p>
            <Link to={`/squads/${sq.id}`} className="btn btn-sm">
              {t('squads.view')}
            </Link>
          </div>
        ))}
      </div>
    </div>
  );
}
