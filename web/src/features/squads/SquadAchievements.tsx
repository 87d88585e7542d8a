import { Flame, Sprout, Trophy } from 'lucide-react';
import { squadTime } from '../../shared/format';
import { useT } from '../../shared/i18n';

/** Achievements lit from data: founded, recent joins, 50+ members. */
export function SquadAchievements({ createdAt, memberCount, joinsLast30Days }: { createdAt: string; memberCount: number; joinsLast30Days: number }) {
  const t = useT();
  return (
    <section className="card">
      <h2 className="panel-title">{t('squads.achievements')}</h2>
      <ul className="plain-list small">
        <li>
          <Trophy size={14} aria-hidden="true" className="inline-icon" /> {t('squads.pioneer', { date: squadTime(createdAt) })}</li>
        <li className={joinsLast30Days > 0 ? '' : 'locked'}>
          <Flame size={14} aria-hidden="true" className="inline-icon" /> {t('squads.active', { count: joinsLast30Days })}</li>
        <li className={memberCount >= 50 ? '' : 'locked'}>
          <Sprout size={14} aria-hidden="true" className="inline-icon" /> {t('squads.growing')}</li>
      </ul>
    </section>
  );
}
