import { useState } from 'react';
import { EyeOff } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { Avatar, Stars } from '../../shared/ui';
import { cutText, personName, shortDate } from '../../shared/format';
import type { ReviewView } from '@app/contracts';
import type { PersonCard } from '../people/peopleApi';
import { useReviewsQuery } from '../reviews/reviewsApi';
import { ReviewCard } from '../reviews/ReviewCard';
import { useT } from '../../shared/i18n';

export function Counters({ reviews, following, followers }: { reviews: number; following: number; followers: number }) {
  const t = useT();
  return (
    <div className="counters" data-testid="profile-counters">
      <div className="counter">
        <b data-testid="count-reviews">{reviews}</b>
        <span className="muted small">{t('profile.reviews')}</span>
      </div>
      <div className="counter">
        <b data-testid="count-following">{following}</b>
        <span className="muted small">{t('profile.following')}</span>
      </div>
      <div className="counter">
        <b data-testid="count-followers">{followers}</b>
        <span className="muted small">{t('profile.followers')}</span>
      </div>
    </div>
  );
}

/**
 * A profile review row: the review's first photo (else the product image, else 'No img'), product name, date,
 * stars, title, content cut at 150. A spoiler keeps its text and photos behind its guard: opening the row
 * gives the card, whose guard reveals them.
 */
export function ReviewRow({ review }: { review: ReviewView }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const spoiler = review.has_spoilers;
  const photo = spoiler ? undefined : review.images?.[0];
  const img = photo || review.product?.image_url;
  const alt = photo ? review.image_alts?.[0] || '' : '';
  if (open) return <ReviewCard review={review} timeStyle="date" />;
  return (
    <div
      className="review-row"
      data-testid="review-row"
      role="button"
      tabIndex={0}
      onClick={() => setOpen(true)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setOpen(true))}
      style={{ cursor: 'pointer' }}
    >
      {spoiler && review.images?.length ? (
        // its photos are behind the guard too: the tile says so rather than 'No img'
        <span className="thumb" data-testid="spoiler-thumb" title={t('truth.spoilerRow')}>
          <EyeOff size={18} aria-hidden="true" />
        </span>
      ) : img ? (
        <img className="thumb" src={img} alt={alt} width={36} height={36} loading="lazy" />
      ) : (
        <span className="thumb">{t('profile.noImg')}</span>
      )}
      <div style={{ flex: 1, minWidth: 0 }}>
        <div className="row gap wrap">
          <span className="strong">{review.product?.name ?? review.title ?? ''}</span>
          <span className="muted small">{shortDate(review.created_at)}</span>
        </div>
        {review.rating ? <Stars value={review.rating} size={14} /> : null}
        {review.title && review.title !== review.product?.name && <div className="strong">{review.title}</div>}
        {spoiler ? (
          <p className="muted" style={{ margin: '0.2rem 0' }} data-testid="review-row-spoiler">
            {t('truth.spoilerRow')}
          </p>
        ) : (
          <p className="pre-wrap" style={{ margin: '0.2rem 0' }} data-testid="review-row-content">
            {cutText(review.content, 150)}
          </p>
        )}
      </div>
    </div>
  );
}

/** Reviews of one member, 5 per load. */
export function ProfileReviews({ userId, emptyText }: { userId: string; emptyText: string }) {
  const t = useT();
  const [pages, setPages] = useState(1);
  const { data, isLoading, isError, isFetching, refetch } = useReviewsQuery({ userId, page: 1, limit: 5 * pages }, { skip: !userId || userId === '0' });
  if (isLoading) return <p className="muted">{t('common.loading')}</p>;
  if (isError)
    return (
      <p className="error-text">
        {t('myReviews.loadFailed')}{' '}
        <button className="link" onClick={() => refetch()}>
          {t('common.retry')}
        </button>
      </p>
    );
  const items = data?.items ?? [];
  if (items.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <div>
      {items.map((r) => (
        <ReviewRow key={r.id} review={r} />
      ))}
      {(data?.meta.total ?? 0) > items.length && (
        <button className="btn btn-block" disabled={isFetching} onClick={() => setPages((p) => p + 1)}>
          {isFetching ? t('feed.moreLoading') : t('feed.more')}
        </button>
      )}
    </div>
  );
}

export function PeopleList({
  people,
  loading,
  error,
  emptyText,
  buttonLabel,
}: {
  people: PersonCard[] | undefined;
  loading: boolean;
  error: string | null;
  emptyText: string;
  buttonLabel: string;
}) {
  const t = useT();
  const navigate = useNavigate();
  if (loading) return <p className="muted">{t('common.loading')}</p>;
  if (error) return <p className="error-text">{error}</p>;
  if (!people || people.length === 0) return <p className="muted">{emptyText}</p>;
  return (
    <div>
      {people.map((p) => (
        <div key={p.id} className="person-item">
          <Avatar src={p.profile_image_url} name={personName(p)} size={40} />
          <div style={{ flex: 1, minWidth: 0 }}>
            <Link to={`/user/${p.username}`} className="strong">
              {personName(p)}
            </Link>
            <div className="muted small">@{p.username}</div>
          </div>
          <button className="btn btn-sm" onClick={() => navigate(`/user/${p.username}`)}>
            {buttonLabel}
          </button>
        </div>
      ))}
    </div>
  );
}
