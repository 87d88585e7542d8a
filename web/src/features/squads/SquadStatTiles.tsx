import type { SquadWeek } from '@app/contracts';
import { useT } from '../../shared/i18n';

/**
 * Total Members, and the last 7 days' reviews by its members and messages in its chat, all counted by the
 * server (issue 43 §2: the spec's fixed Squad Rating and Activity Level were figures from nowhere).
 */
export function SquadStatTiles({ memberCount, week }: { memberCount: number; week: SquadWeek | undefined }) {
  const t = useT();
  return (
    <div className="grid grid-3" data-testid="squad-stats">
      <div className="card stat-tile">
        <b data-testid="squad-members-count">{memberCount}</b>
        <span className="muted small">{t('squads.totalMembers')}</span>
      </div>
      {week && (
        <>
          <div className="card stat-tile">
            <b data-testid="squad-reviews-week">{week.reviews}</b>
            <span className="muted small">{t('truth.reviewsThisWeek')}</span>
          </div>
          <div className="card stat-tile">
            <b data-testid="squad-messages-week">{week.messages}</b>
            <span className="muted small">{t('truth.messagesThisWeek')}</span>
          </div>
        </>
      )}
    </div>
  );
}
