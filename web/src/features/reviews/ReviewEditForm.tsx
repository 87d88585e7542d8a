import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../core/api';
import { Stars } from '../../shared/ui';
import type { ReviewView } from '@app/contracts';
import { useUpdateReviewMutation } from './reviewsApi';
import { useT } from '../../shared/i18n';

/** Editing one's own review in place (PUT /reviews/{id}); the card then shows 'düzenlendi'. */
export function ReviewEditForm({ review, onDone }: { review: ReviewView; onDone: (updated: ReviewView | null) => void }) {
  const [content, setContent] = useState(review.content ?? '');
  const [rating, setRating] = useState<number | undefined>(review.rating || undefined);
  const [spoilers, setSpoilers] = useState(review.has_spoilers ?? false);
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const [update, state] = useUpdateReviewMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = content.trim();
    if (!text) return;
    const r = await update({ id: review.id, content: text, has_spoilers: spoilers, ...(rating ? { rating } : {}) });
    if ('error' in r) return setError(errorMessage(r.error, 'Failed to update review'));
    onDone(r.data ?? { ...review, content: text, rating: rating ?? review.rating, has_spoilers: spoilers, edited: true });
  }

  return (
    <form className="form" onSubmit={submit} data-testid="review-edit">
      {review.rating ? <Stars value={rating ?? 0} size={20} onChange={setRating} /> : null}
      <textarea rows={3} value={content} onChange={(e) => setContent(e.target.value)} aria-label="Review text" maxLength={5000} autoFocus />
      <label className="muted small" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <input type="checkbox" style={{ width: 'auto', margin: 0 }} checked={spoilers} onChange={(e) => setSpoilers(e.target.checked)} data-testid="edit-spoilers" /> {t('composer.spoilers')}
      </label>
      {error && <div className="error-bar">{error}</div>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button className="btn btn-primary" disabled={!content.trim() || state.isLoading}>
          Save
        </button>
      </div>
    </form>
  );
}
