import { Link, useSearchParams } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { useSearchQuery } from './searchApi';
import { SEARCH_GROUP_TITLES, SEARCH_GROUPS, searchEntries } from './searchEntries';

/** The server's most per group (SEARCH_GROUP_MAX; the web imports only types from contracts). */
const RESULTS_PER_GROUP = 20;

/** /search?q=: the one search's four groups, each a longer page than the top bar's. */
export function SearchPage() {
  const t = useT();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const { data, isFetching, isError } = useSearchQuery({ q, limit: RESULTS_PER_GROUP }, { skip: !q });
  const entries = data ? searchEntries(data, t('search.spoilerReview'), (count) => t('live.tagReviews', { count })) : [];

  return (
    <div className="page" data-testid="search-page">
      <h1>{t('search.title', { q })}</h1>
      {!q ? null : isError ? (
        <p className="muted">{t('search.failed')}</p>
      ) : isFetching && !data ? (
        <p className="muted">{t('search.searching')}</p>
      ) : (
        SEARCH_GROUPS.map((group) => {
          const rows = entries.filter((e) => e.group === group);
          return (
            <section key={group} className="card" aria-label={t(SEARCH_GROUP_TITLES[group])} data-testid={`search-group-${group}`}>
              <h2>{t(SEARCH_GROUP_TITLES[group])}</h2>
              {rows.length === 0 ? (
                <p className="muted">{t('search.groupEmpty')}</p>
              ) : (
                <ul>
                  {rows.map((e) => (
                    <li key={e.key}>
                      <Link to={e.path} className="strong">
                        {e.label}
                      </Link>
                      <span className="muted small block">{e.detail}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}
