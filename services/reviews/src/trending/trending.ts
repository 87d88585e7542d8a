import { TrendingTag, TrendingTopic } from '@app/contracts';

export const TRENDING_SIZE = 5;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Percentage change against last week, rounded; null when last week had none (issue 43 §2: no
 * invented figure, a change from nothing is not a percentage, and the screens then show none).
 */
export function changePercent(thisWeek: number, lastWeek: number): number | null {
  if (lastWeek === 0) return null;
  return Math.round(((thisWeek - lastWeek) / lastWeek) * 100);
}

/** For ranking ties: a key new this week rises above any change. */
const growth = (c: WeekCounts) => changePercent(c.thisWeek, c.lastWeek) ?? Number.POSITIVE_INFINITY;

type WeekCounts = { thisWeek: number; lastWeek: number };

/** Infinity minus Infinity is NaN, which a sort would take for "equal" only by chance. */
const compareGrowth = (a: number, b: number) => (a === b ? 0 : a > b ? 1 : -1);

/** The top keys by reviews in the 7 days before `now`, compared with the 7 days before that. */
function rank(reviews: { key: string; created_at: string }[], now: number): [string, WeekCounts][] {
  const weekStart = now - WEEK_MS;
  const counts = new Map<string, WeekCounts>();
  for (const r of reviews) {
    const at = Date.parse(r.created_at);
    if (at < weekStart - WEEK_MS || at > now) continue;
    const c = counts.get(r.key) ?? { thisWeek: 0, lastWeek: 0 };
    if (at >= weekStart) c.thisWeek++;
    else c.lastWeek++;
    counts.set(r.key, c);
  }
  return [...counts.entries()]
    .filter(([, c]) => c.thisWeek > 0)
    .sort(([a, x], [b, y]) => y.thisWeek - x.thisWeek || compareGrowth(growth(y), growth(x)) || a.localeCompare(b))
    .slice(0, TRENDING_SIZE);
}

/** Top categories by reviews this week against last week. */
export function rankTopics(reviews: { category: string; created_at: string }[], now: number): TrendingTopic[] {
  return rank(reviews.map((r) => ({ key: r.category, created_at: r.created_at })), now).map(([category, c]) => ({
    topic: category,
    category,
    reviews_this_week: c.thisWeek,
    reviews_last_week: c.lastWeek,
    change_percent: changePercent(c.thisWeek, c.lastWeek),
  }));
}

/** Top tags in the same window (issue 21 §6); a review counts once per tag it carries. */
export function rankTags(reviews: { tags?: string[]; created_at: string }[], now: number): TrendingTag[] {
  const rows = reviews.flatMap((r) => (r.tags ?? []).map((key) => ({ key, created_at: r.created_at })));
  return rank(rows, now).map(([tag, c]) => ({
    tag,
    reviews_this_week: c.thisWeek,
    reviews_last_week: c.lastWeek,
    change_percent: changePercent(c.thisWeek, c.lastWeek),
  }));
}

export function twoWeeksBefore(now: number): string {
  return new Date(now - 2 * WEEK_MS).toISOString();
}
