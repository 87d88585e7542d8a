import { useState } from 'react';
import type { ReviewVersionView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { feedAgo } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { Modal, Spinner, Stars } from '../../shared/ui';
import { useReviewHistoryQuery } from './reviewsApi';

/**
 * Earlier versions of a review, newest first (issue 21 §3); opened from the card's 'edited'. A version of a
 * spoiler review (or one written as a spoiler) is behind the same guard as the card's text (issue 43 §2).
 */
export function ReviewHistory({ reviewId, spoiler, onClose }: { reviewId: string; spoiler: boolean; onClose: () => void }) {
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
              <Version key={v.version} v={v} guarded={spoiler || v.has_spoilers} />
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

function Version({ v, guarded }: { v: ReviewVersionView; guarded: boolean }) {
  const t = useT();
  const [revealed, setRevealed] = useState(false);
  return (
    <li data-testid="review-version">
      <div className="muted small">
        {t('review.version', { n: v.version })} · <time dateTime={v.edited_at}>{t('review.replaced', { when: feedAgo(v.edited_at) })}</time>
      </div>
      {typeof v.rating === 'number' && v.rating > 0 && <Stars value={v.rating} size={14} />}
      {guarded && !revealed ? (
        // as on the card: the text is not in the page until asked for
        <p>
          <button type="button" className="btn spoiler-button" data-testid="version-spoiler-reveal" aria-expanded={false} onClick={() => setRevealed(true)}>
            {t('review.spoiler')}
          </button>
        </p>
      ) : (
        <>
          <p className="pre-wrap">{v.content}</p>
          {guarded && (
            <button type="button" className="link muted small" aria-expanded onClick={() => setRevealed(false)}>
              {t('review.hideSpoiler')}
            </button>
          )}
        </>
      )}
    </li>
  );
}
