import { Avatar } from '../../shared/ui';
import { personName, shortAgo } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useActivitiesQuery } from './squadsApi';

export function SquadActivity({ squadId }: { squadId: string; squadName: string }) {
  const t = useT();
  const { data, isLoading, isError } = useActivitiesQuery({ page: 1, limit: 50 }, { pollingInterval: 60_000 });
  const items = (data ?? []).filter((a) => a.type === 'squad_join' && a.data?.squad?.id === squadId);
  return (
    <section className="card" data-testid="squad-activity">
      <h2 className="panel-title">{t('squads.recentActivity')}</h2>
      {isLoading && <p className="muted small">{t('common.loading')}</p>}
      {isError && <p className="error-text small">{t('squads.activityFailed')}</p>}
      {!isLoading && !isError && items.length === 0 && <p className="muted small">{t('squads.noActivity')}</p>}
      {items.map((a) => (
        <div key={a.id} className="row gap" style={{ padding: '0.35rem 0' }}>
          <Avatar src={a.user?.profile_image_url} name={personName(a.user)} size={28} />
          <span className="small">
            <span className="strong">{personName(a.user)}</span> {t('squads.joinedSquad')} · <span className="muted">{shortAgo(a.created_at)}</span>
          </span>
        </div>
      ))}
    </section>
  );
}
