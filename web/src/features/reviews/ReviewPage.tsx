import { useParams } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { Skeleton } from '../../shared/ui';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { personName } from '../../shared/format';
import { ReviewCard } from './ReviewCard';
import { useReviewQuery } from './reviewsApi';

/** A review's own page (/review/:id): what its share button copies and its link card describes. */
export function ReviewPage() {
  const t = useT();
  const { id = '' } = useParams();
  const { data: review, isLoading, isError } = useReviewQuery(id, { skip: !id });
  useDocumentTitle(review ? `${personName(review.user)}: ${review.product?.name ?? review.title ?? t('reviewPage.title')}` : isError ? t('reviewPage.title') : undefined);

  if (isLoading) return <Skeleton lines={4} />;
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
