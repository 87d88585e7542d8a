import { useParams } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { Skeleton } from '../../shared/ui';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { personName } from '../../shared/format';
import { ReviewCard } from './ReviewCard';
import { useReviewQuery } from './reviewsApi';
import { errorCode } from '../../core/api';
import { NotFoundPage } from '../../shared/NotFoundPage';

/** A review's own page (/review/:id): what its share button copies and its link card describes. */
export function ReviewPage() {
  const t = useT();
  const { id = '' } = useParams();
  const { data: review, isLoading, isError, error } = useReviewQuery(id, { skip: !id });
  useDocumentTitle(review ? `${personName(review.user)}: ${review.product?.name ?? review.title ?? t('reviewPage.title')}` : isError ? t('reviewPage.title') : undefined);

  if (isLoading) return <Skeleton lines={4} />;
  // an unknown, deleted, hidden or not-public review is the app's 404 screen, as the server's answer for the page is
  if (isError && ['REVIEW_NOT_FOUND', 'NOT_FOUND'].includes(errorCode(error) ?? '')) return <NotFoundPage />;
  return (
    <div className="page" data-testid="review-page">
      <h1 className="page-title">{t('reviewPage.title')}</h1>
      {isError || !review ? (
        <div className="card empty" data-testid="review-missing">
          {t('reviewPage.notFound')}
        </div>
      ) : (
        <ReviewCard review={review} timeStyle="date" />
      )}
    </div>
  );
}
