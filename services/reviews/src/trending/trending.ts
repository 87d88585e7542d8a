import { TrendingTopic } from '@app/contracts';

export const TRENDING_SIZE = 5;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Percentage change against last week, rounded; a topic new this week counts as +100%. */
export function changePercent(thisWeek: number, lastWeek: number): number {
  if (lastWeek === 0) return thisWeek > 0 ? 100 : 0;
  return Math.round(((thisWeek - lastWeek) / lastWeek) * 100);
}

/** Top categories by reviews in the 7 days before `now`, compared with the 7 days before that. */
export function rankTopics(reviews: { category: string; created_at: string }[], now: number): TrendingTopic[] {
  const weekStart = now - WEEK_MS;
  const counts = new Map<string, { thisWeek: number; lastWeek: number }>();
  for (const r of reviews) {
    const at = Date.parse(r.created_at);
    if (at < weekStart - WEEK_MS || at > now) continue;
    const c = counts.get(r.category) ?? { thisWeek: 0, lastWeek: 0 };
    if (at >= weekStart) c.thisWeek++;
    else c.lastWeek++;
    counts.set(r.category, c);
  }
  return [...counts.entries()]
    .filter(([, c]) => c.thisWeek > 0)
    .sort(([a, x], [b, y]) => y.thisWeek - x.thisWeek || changePercent(y.thisWeek, y.lastWeek) - changePercent(x.thisWeek, x.lastWeek) || a.localeCompare(b))
    .slice(0, TRENDING_SIZE)
    .map(([category, c]) => ({
      topic: category,
      category,
      reviews_this_week: c.thisWeek,
      reviews_last_week: c.lastWeek,
      change_percent: changePercent(c.thisWeek, c.lastWeek),
    }));
}

export function twoWeeksBefore(now: number): string {
  return new Date(now - 2 * WEEK_MS).toISOString();
}
