import { useState } from 'react';
import { useSession } from '../../core/store';
import { Skeleton } from '../../shared/ui';
import { oneDecimal } from '../../shared/format';
import { ReviewCard } from '../reviews/ReviewCard';
import { useReviewsQuery } from '../reviews/reviewsApi';
import { useT } from '../../shared/i18n';

type Filter = 'all' | 'rated' | 'posts';

/** My Reviews: real counts from the API; the spec's Published/Drafts tabs become 'Rated reviews' and 'Posts' (no drafts exist). */
export function MyReviewsPage() {
  const t = useT();
  const { user } = useSession();
  const [filter, setFilter] = useState<Filter>('all');
  const { data, isLoading, isError, refetch } = useReviewsQuery({ userId: user?.id, page: 1, limit: 100 }, { skip: !user });
  const items = data?.items ?? [];
  const rated = items.filter((r) => typeof r.rating === 'number' && r.rating > 0);
  const avg = rated.length ? rated.reduce((s, r) => s + (r.rating ?? 0), 0) / rated.length : 0;
  const totalLikes = items.reduce((s, r) => s + Number(r.like_count ?? r.likes ?? 0), 0);
  const shown = filter === 'rated' ? rated : filter === 'posts' ? items.filter((r) => !r.rating) : items;
  return (
    <div className="page" data-testid="my-reviews">
      <h1 className="page-title" style={{ marginBottom: 0 }}>
        {t('nav.myReviews')}
      </h1>
      <p className="muted">{t('myReviews.subtitle')}</p>
      <div className="grid grid-3">
        <div className="card stat-tile">
          <b data-testid="total-reviews">{data?.meta.total ?? 0}</b>
          <span className="muted small">{t('myReviews.total')}</span>
        </div>
        <div className="card stat-tile">
          <b>{oneDecimal(avg)}</b>
          <span className="muted small">{t('myReviews.average')}</span>
        </div>
        <div className="card stat-tile">
          <b>{totalLikes}</b>
          <span className="muted small">{t('review.likesReceived')}</span>
        </div>
      </div>
      <div className="tabs">
        {(
          [
            ['all', t('myReviews.all')],
            ['rated', t('myReviews.rated')],
            ['posts', t('myReviews.posts')],
          ] as Array<[Filter, string]>
        ).map(([id, label]) => (
          <button key={id} className={`tab ${filter === id ? 'active' : ''}`} onClick={() => setFilter(id)}>
            {label}
          </button>
        ))}
      </div>
      {isLoading && <Skeleton />}
      {isError && (
        <div className="error-bar">
          {t('myReviews.loadFailed')}{' '}
          <button className="link" onClick={() => refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {data && shown.length === 0 && <div className="card empty">{t('myReviews.empty')}</div>}
      {shown.map((r) => (
        <ReviewCard key={r.id} review={r} timeStyle="date" />
      ))}
    </div>
  );
}
