import { Flame, Sprout, Trophy } from 'lucide-react';
import { squadTime } from '../../shared/format';

/** Achievements lit from data: founded, recent joins, 50+ members. */
export function SquadAchievements({ createdAt, memberCount, joinsLast30Days }: { createdAt: string; memberCount: number; joinsLast30Days: number }) {
  return (
    <section className="card">
      <h2 className="panel-title">Squad Achievements</h2>
      <ul className="plain-list small">
        <li>
          <Trophy size={14} aria-hidden="true" className="inline-icon" /> Squad Pioneer — founded {squadTime(createdAt)}</li>
        <li className={joinsLast30Days > 0 ? '' : 'locked'}>
          <Flame size={14} aria-hidden="true" className="inline-icon" /> Active Community — {joinsLast30Days} joined in the last 30 days</li>
        <li className={memberCount >= 50 ? '' : 'locked'}>
          <Sprout size={14} aria-hidden="true" className="inline-icon" /> Growing Squad — 50+ members</li>
      </ul>
    </section>
  );
}
