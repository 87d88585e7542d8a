import { Flame, Sprout } from 'lucide-react';
import type { SquadWeek } from '@app/contracts';
import { useT } from '../../shared/i18n';

/** A squad of 50 members is a growing one (the spec's threshold). */
const GROWING_MEMBERS = 50;

/**
 * Only the achievements the squad has earned, from its data: a week with posts in it, 50+ members.
 * None earned, no section (issue 43 §2: a new squad of one showed them all).
 */
export function SquadAchievements({ memberCount, week }: { memberCount: number; week: SquadWeek | undefined }) {
  const t = useT();
  const posts = week ? week.reviews + week.messages : 0;
  if (posts === 0 && memberCount < GROWING_MEMBERS) return null;
  return (
    <section className="card" data-testid="squad-achievements">
      <h2 className="panel-title">{t('squads.achievements')}</h2>
      <ul className="plain-list small">
        {posts > 0 && (
          <li>
            <Flame size={14} aria-hidden="true" className="inline-icon" /> {t('truth.activeWeek', { count: posts })}
          </li>
        )}
        {memberCount >= GROWING_MEMBERS && (
          <li>
            <Sprout size={14} aria-hidden="true" className="inline-icon" /> {t('squads.growing')}
          </li>
        )}
      </ul>
    </section>
  );
}
