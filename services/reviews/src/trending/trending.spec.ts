import { changePercent, rankTopics } from './trending';

const NOW = Date.parse('2024-06-15T12:00:00Z');
const daysAgo = (d: number) => new Date(NOW - d * 86_400_000).toISOString();
const many = (category: string, n: number, day: number) => Array.from({ length: n }, () => ({ category, created_at: daysAgo(day) }));

describe('trending', () => {
  it('computes the change against last week', () => {
    expect(changePercent(15, 10)).toBe(50);
    expect(changePercent(5, 10)).toBe(-50);
    expect(changePercent(3, 0)).toBeNull();
    expect(changePercent(0, 0)).toBeNull();
    expect(changePercent(1, 3)).toBe(-67);
  });

  it('ranks the top 5 categories of the last 7 days with counts and changes', () => {
    const reviews = [
      ...many('Electronics', 6, 1),
      ...many('Electronics', 4, 9),
      ...many('Kitchen', 3, 2),
      ...many('Fitness', 3, 6.9),
      ...many('Fitness', 6, 8),
      ...many('Home', 2, 0.5),
      ...many('Beauty', 1, 3),
      ...many('Fashion', 1, 4),
      ...many('Fashion', 9, 20), // older than two weeks: ignored
    ];
    const topics = rankTopics(reviews, NOW);
    expect(topics).toHaveLength(5);
    expect(topics[0]).toEqual({
      topic: 'Electronics',
      category: 'Electronics',
      reviews_this_week: 6,
      reviews_last_week: 4,
      change_percent: 50,
    });
    expect(topics.map((t) => t.category)).toEqual(['Electronics', 'Kitchen', 'Fitness', 'Home', 'Beauty']);
    expect(topics[1].change_percent).toBeNull();
    expect(topics[2]).toMatchObject({ reviews_this_week: 3, reviews_last_week: 6, change_percent: -50 });
  });

  it('leaves out categories with nothing this week', () => {
    expect(rankTopics(many('Home', 4, 10), NOW)).toEqual([]);
  });
});
