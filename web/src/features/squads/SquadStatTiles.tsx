import { activityLevel } from './squadsApi';

/** Squad Rating tile: one decimal, '—' while unknown or when no member rated anything. */
export function squadRatingText(rating: number | null | undefined): string {
  return rating != null ? Number(rating).toFixed(1) : '—';
}

/** Total Members, Squad Rating (from the members' reviews) and Activity Level (from recent joins). */
export function SquadStatTiles({ memberCount, rating, joinsLast30Days }: { memberCount: number; rating: number | null | undefined; joinsLast30Days: number }) {
  return (
    <div className="grid grid-3">
      <div className="card stat-tile">
        <b>{memberCount}</b>
        <span className="muted small">Total Members</span>
      </div>
      <div className="card stat-tile">
        <b data-testid="squad-rating">{squadRatingText(rating)}</b>
        <span className="muted small">Squad Rating</span>
      </div>
      <div className="card stat-tile">
        <b>{activityLevel(joinsLast30Days, memberCount)}</b>
        <span className="muted small">Activity Level</span>
      </div>
    </div>
  );
}
