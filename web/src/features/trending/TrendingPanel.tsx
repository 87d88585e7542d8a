import { useNavigate } from 'react-router-dom';
import { useTrendingQuery } from './trendingApi';

export function topicName(t: { topic?: string; name?: string; category?: string }): string {
  return t.topic ?? t.name ?? t.category ?? '';
}

export function TrendingPanel() {
  const { data, isLoading, isError } = useTrendingQuery();
  const navigate = useNavigate();
  const list = (data ?? []).slice(0, 5);
  return (
    <section className="card panel" data-testid="trending-panel">
      <h3 className="panel-title">Trending Topics</h3>
      {isLoading && <p className="muted">Loading...</p>}
      {isError && <p className="muted">Failed to load trending topics</p>}
      {!isLoading && !isError && list.length === 0 && <p className="muted">No trending topics this week</p>}
      <ul className="plain-list">
        {list.map((t, i) => {
          const change = Number(t.change_percent ?? t.percent_change ?? t.change ?? 0);
          const count = Number(t.reviews_this_week ?? t.count ?? 0);
          return (
            <li key={t.id ?? topicName(t) ?? i}>
              <button
                className="trend-row"
                onClick={() => (t.slug ? navigate(`/product/${t.slug}`) : navigate(`/products?category=${encodeURIComponent(topicName(t))}`))}
              >
                <span className="trend-name">#{topicName(t)}</span>
                <span className="muted small">
                  {count} reviews this week
                  <span className={change >= 0 ? 'up' : 'down'}>
                    {' '}
                    {change >= 0 ? '+' : ''}
                    {Math.round(change)}%
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {/* the API ranks at most 5 topics: every category lives on Explore's Products & Reviews tab */}
      <button className="link" onClick={() => navigate('/explore')} data-testid="view-all-topics">
        View all topics
      </button>
    </section>
  );
}
