import { useNavigate } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { useTrendingQuery } from './trendingApi';
import { TrendingTags } from './TrendingTags';
import { categoryName } from '../../shared/format';

export function TrendingPanel() {
  const { data, isLoading, isError } = useTrendingQuery();
  const navigate = useNavigate();
  const t = useT();
  const list = (data ?? []).slice(0, 5);
  return (
    <section className="card panel" data-testid="trending-panel">
      <h2 className="panel-title">{t('trending.title')}</h2>
      {isLoading && <p className="muted">{t('common.loading')}</p>}
      {isError && <p className="muted">{t('trending.failed')}</p>}
      {!isLoading && !isError && list.length === 0 && <p className="muted">{t('trending.empty')}</p>}
      <ul className="plain-list">
        {list.map((topic) => {
          const change = topic.change_percent;
          return (
            <li key={topic.topic}>
              <button className="trend-row" onClick={() => navigate(`/products?category=${encodeURIComponent(topic.topic)}`)}>
                <span className="trend-name">#{categoryName(topic.topic)}</span>
                <span className="muted small">
                  {t('trending.thisWeek', { count: topic.reviews_this_week })}
                  {change !== null && (
                    <span className={change >= 0 ? 'up' : 'down'} data-testid="trend-change">
                      {' '}
                      {change >= 0 ? '+' : ''}
                      {Math.round(change)}%
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <TrendingTags />
      {/* the API ranks at most 5 topics: every category lives on Explore's Products & Reviews tab */}
      <button className="link" onClick={() => navigate('/explore')} data-testid="view-all-topics">
        {t('trending.viewAll')}
      </button>
    </section>
  );
}
