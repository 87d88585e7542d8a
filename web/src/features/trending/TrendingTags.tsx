import { Link } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { useTrendingTagsQuery } from './trendingApi';

/** The week's top tags next to the categories, each a link to its tag page (issue 21 §6). */
export function TrendingTags() {
  const t = useT();
  const { data } = useTrendingTagsQuery();
  if (!data || data.length === 0) return null;
  return (
    <>
      <h3 className="panel-title small">{t('hashtags.trending')}</h3>
      <ul className="plain-list" data-testid="trending-tags">
        {data.map((tag) => (
          <li key={tag.tag}>
            <Link className="trend-row" to={`/tags/${encodeURIComponent(tag.tag)}`}>
              <span className="trend-name">#{tag.tag}</span>
              <span className="muted small">
                {t('trending.thisWeek', { count: tag.reviews_this_week })}
                {/* a change only against a week that had some (issue 43 §2) */}
                {tag.change_percent !== null && (
                  <span className={tag.change_percent >= 0 ? 'up' : 'down'} data-testid="trend-change">
                    {' '}
                    {tag.change_percent >= 0 ? '+' : ''}
                    {tag.change_percent}%
                  </span>
                )}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
