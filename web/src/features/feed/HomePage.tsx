import { useMemo, useState } from 'react';
import { Inbox } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Skeleton } from '../../shared/ui';
import type { ReviewView } from '@app/contracts';
import { Composer } from '../composer/Composer';
import { ReviewCard } from '../reviews/ReviewCard';
import { useFeedQuery } from '../reviews/reviewsApi';
import { useT } from '../../shared/i18n';
import { useStaged } from '../../shared/useStaged';

export type FeedTab = 'all' | 'reviews' | 'media';
export const FEED_TABS = [
  { id: 'all', label: 'feed.tabAll' },
  { id: 'reviews', label: 'feed.tabReviews' },
  { id: 'media', label: 'feed.tabMedia' },
] as const satisfies ReadonlyArray<{ id: FeedTab; label: string }>;

/** 'İncelemeler' keeps only items with a rating; 'Medya' only items with images. */
export function filterFeed(items: ReviewView[], tab: FeedTab): ReviewView[] {
  return items.filter((r) => {
    if (tab === 'reviews') return typeof r.rating === 'number' && r.rating > 0;
    if (tab === 'media') return (r.images?.length ?? 0) > 0;
    return true;
  });
}

function FeedPage({ page, tab, isLast, onMore }: { page: number; tab: FeedTab; isLast: boolean; onMore: () => void }) {
  const { data, isLoading, isFetching, isError, refetch } = useFeedQuery({ page, limit: 10 });
  const t = useT();
  const all = useMemo(() => filterFeed(data?.items ?? [], tab), [data, tab]);
  // the cards come in transitions, two at a time, none with the reply itself: the store's update is
  // rendered at once (React renders an external store's change synchronously), in one task with its layout
  const shown = useStaged(all, 0, 2);
  if (isLoading || (shown.length === 0 && all.length > 0))
    return (
      <>
        <Skeleton />
        <Skeleton />
      </>
    );
  if (isError)
    return (
      <div className="card error-box" data-testid="feed-error">
        <p>{t('feed.error')}</p>
        <button className="btn btn-primary" onClick={() => refetch()}>
          {t('feed.retry')}
        </button>
      </div>
    );
  if (!data) return null;
  if (page === 1 && data.items.length === 0)
    return (
      <div className="card empty" data-testid="feed-empty">
        <Inbox className="empty-icon" size={40} aria-hidden="true" />
        <h2 className="panel-title">{t('feed.emptyTitle')}</h2>
        <p className="muted">{t('feed.emptyText')}</p>
        <Link to="/explore" className="btn btn-primary">
          {t('feed.discover')}
        </Link>
      </div>
    );
  // more pages while totalPages exceeds the page; an empty page ends the list (part 1 §4)
  const more = data.items.length > 0 && data.meta.totalPages > page;
  return (
    <>
      {shown.map((r) => (
        <ReviewCard key={r.id} review={r} />
      ))}
      {page === 1 && tab !== 'all' && all.length === 0 && (
        <p className="muted center">{tab === 'media' ? t('feed.noMedia') : t('feed.noRated')}</p>
      )}
      {isLast && more && (
        <button className="btn btn-block" onClick={onMore} disabled={isFetching} data-testid="feed-more">
          {isFetching ? t('feed.moreLoading') : t('feed.more')}
        </button>
      )}
    </>
  );
}

export function HomePage() {
  const [tab, setTab] = useState<FeedTab>('all');
  const [pages, setPages] = useState(1);
  const t = useT();
  return (
    <div className="page">
      <h1 className="page-title">{t('feed.title')}</h1>
      {/* posting a review resets the feed to page 1 */}
      <Composer onPosted={() => setPages(1)} />
      <div className="tabs" role="tablist">
        {FEED_TABS.map((tb) => (
          <button key={tb.id} role="tab" aria-selected={tab === tb.id} className={`tab ${tab === tb.id ? 'active' : ''}`} onClick={() => setTab(tb.id)}>
            {t(tb.label)}
          </button>
        ))}
      </div>
      <div className="feed" data-testid="feed">
        {Array.from({ length: pages }, (_, i) => (
          <FeedPage key={i + 1} page={i + 1} tab={tab} isLast={i + 1 === pages} onMore={() => setPages(pages + 1)} />
        ))}
      </div>
    </div>
  );
}
