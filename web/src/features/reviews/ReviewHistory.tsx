import type { ReviewVersionView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { feedAgo } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { Modal, Spinner, Stars } from '../../shared/ui';
import { useReviewHistoryQuery } from './reviewsApi';

/** Earlier versions of a review, newest first (issue 21 §3); opened from the card's 'düzenlendi'. */
export function ReviewHistory({ reviewId, onClose }: { reviewId: string; onClose: () => void }) {
  const t = useT();
  const { data, error, isLoading } = useReviewHistoryQuery(reviewId);
  return (
    <Modal open onClose={onClose} title={t('review.history')}>
      <div data-testid="review-history">
        {isLoading && <Spinner />}
        {error && <div className="error-bar">{errorMessage(error, t('review.historyError'))}</div>}
        {data && data.length === 0 && <p className="muted">{t('review.historyEmpty')}</p>}
        {data && data.length > 0 && (
          <ol className="review-history" style={{ listStyle: 'none', padding: 0, display: 'grid', gap: 12 }}>
            {data.map((v) => (
              <Version key={v.version} v={v} />
            ))}
          </ol>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('review.close')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

function Version({ v }: { v: ReviewVersionView }) {
  const t = useT();
  return (
    <li data-testid="review-version">
      <div className="muted small">
        {t('review.version', { n: v.version })} · <time dateTime={v.edited_at}>{t('review.replaced', { when: feedAgo(v.edited_at) })}</time>
      </div>
      {typeof v.rating === 'number' && v.rating > 0 && <Stars value={v.rating} size={14} />}
      <p className="pre-wrap">{v.content}</p>
    </li>
  );
}
