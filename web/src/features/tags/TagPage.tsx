import { useState } from 'react';
import { Hash } from 'lucide-react';
import { useParams } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { EmptyState, Skeleton } from '../../shared/ui';
import { useT } from '../../shared/i18n';
import { ReviewCard } from '../reviews/ReviewCard';
import { useFollowTagMutation, useTagQuery, useTagReviewsQuery } from './tagsApi';

/** /tags/:tag: the tag's reviews, newest first, with Follow / Unfollow (issue 21 §6). */
export function TagPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const tag = useParams().tag ?? '';
  const [pages, setPages] = useState(1);
  const info = useTagQuery(tag);
  const [follow, followState] = useFollowTagMutation();
  const following = info.data?.following ?? false;

  async function toggle() {
    const r = await follow({ tag, follow: !following });
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('hashtags.followFailed')), kind: 'error' }));
  }

  return (
    <div className="page" data-testid="tag-page">
      <div className="row gap" style={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <h1 className="page-title">
          <Hash size={22} aria-hidden="true" /> {tag}
        </h1>
        <button
          type="button"
          className={`btn ${following ? '' : 'btn-primary'}`}
          aria-pressed={following}
          disabled={!info.data || followState.isLoading}
          onClick={() => void toggle()}
          data-testid="tag-follow"
        >
          {following ? t('hashtags.unfollow') : t('hashtags.follow')}
        </button>
      </div>
      {Array.from({ length: pages }, (_, i) => (
        <TagReviewsPage key={i} tag={tag} page={i + 1} isLast={i + 1 === pages} onMore={() => setPages((n) => n + 1)} />
      ))}
    </div>
  );
}

function TagReviewsPage({ tag, page, isLast, onMore }: { tag: string; page: number; isLast: boolean; onMore: () => void }) {
  const t = useT();
  const { data, isLoading, isError } = useTagReviewsQuery({ tag, page });
  if (isLoading) return <Skeleton />;
  if (isError) return <p className="muted">{t('hashtags.loadFailed')}</p>;
  if (!data) return null;
  if (page === 1 && data.items.length === 0) return <EmptyState title={t('hashtags.empty')} />;
  return (
    <>
      {data.items.map((r) => (
        <ReviewCard key={r.id} review={r} />
      ))}
      {isLast && page < data.meta.totalPages && (
        <button type="button" className="btn" onClick={onMore}>
          {t('feed.more')}
        </button>
      )}
    </>
  );
}
