import { activityLevel } from './squadsApi';
import { useT } from '../../shared/i18n';

/** Squad Rating tile: one decimal, '—' while unknown or when no member rated anything. */
export function squadRatingText(rating: number | null | undefined): string {
  return rating != null ? Number(rating).toFixed(1) : '—';
}

/** Total Members, Squad Rating (from the members' reviews) and Activity Level (from recent joins). */
export function SquadStatTiles({ memberCount, rating, joinsLast30Days }: { memberCount: number; rating: number | null | undefined; joinsLast30Days: number }) {
  const t = useT();
  return (
    <div className="grid grid-3">
      <div className="card stat-tile">
        <b>{memberCount}</b>
        <span className="muted small">{t('squads.totalMembers')}</span>
      </div>
      <div className="card stat-tile">
        <b data-testid="squad-rating">{squadRatingText(rating)}</b>
        <span className="muted small">{t('squads.rating')}</span>
      </div>
      <div className="card stat-tile">
        <b>{t(`squads.level${activityLevel(joinsLast30Days, memberCount) as 'Low' | 'Medium' | 'High'}`)}</b>
        <span className="muted small">{t('squads.activityLevel')}</span>
      </div>
    </div>
  );
}
