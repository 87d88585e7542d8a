import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../core/api';
import { Stars } from '../../shared/ui';
import type { ReviewView } from '@app/contracts';
import { useUpdateReviewMutation, type ReviewEdit } from './reviewsApi';
import { useT } from '../../shared/i18n';
// By path: the contracts index loads class-validator, which the web bundle leaves out.
import { IMAGE_ALT_MAX } from '../../../../libs/contracts/src/reviews/catalogue';

/** The stored description of each image ('' where none; reviews from before alt text have none). */
function storedAlts(review: ReviewView): string[] {
  return review.images.map((_, i) => review.image_alts?.[i] ?? '');
}

/**
 * The PUT /reviews/{id} body. The images' descriptions (issue 21 §7) go only when one changed, and
 * then with the same images: the server takes `image_alts` only together with `images`.
 */
export function buildEdit(
  review: ReviewView,
  input: { content: string; rating?: number; spoilers: boolean; alts: string[] },
): Omit<ReviewEdit, 'id'> {
  const body: Omit<ReviewEdit, 'id'> = { content: input.content.trim(), has_spoilers: input.spoilers };
  if (input.rating) body.rating = input.rating;
  const alts = input.alts.map((a) => a.trim());
  const stored = storedAlts(review);
  if (alts.some((a, i) => a !== stored[i])) Object.assign(body, { images: review.images, image_alts: alts });
  return body;
}

/** Editing one's own review in place (PUT /reviews/{id}); the card then shows 'düzenlendi'. */
export function ReviewEditForm({ review, onDone }: { review: ReviewView; onDone: (updated: ReviewView | null) => void }) {
  const [content, setContent] = useState(review.content ?? '');
  const [rating, setRating] = useState<number | undefined>(review.rating || undefined);
  const [spoilers, setSpoilers] = useState(review.has_spoilers ?? false);
  const [alts, setAlts] = useState(() => storedAlts(review));
  const [error, setError] = useState<string | null>(null);
  const t = useT();
  const [update, state] = useUpdateReviewMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!content.trim()) return;
    const body = buildEdit(review, { content, rating, spoilers, alts });
    const r = await update({ id: review.id, ...body });
    if ('error' in r) return setError(errorMessage(r.error, t('review.editFailed')));
    onDone(r.data ?? { ...review, ...body, rating: rating ?? review.rating, edited: true });
  }

  return (
    <form className="form" onSubmit={submit} data-testid="review-edit">
      {review.rating ? <Stars value={rating ?? 0} size={20} onChange={setRating} /> : null}
      <textarea rows={3} value={content} onChange={(e) => setContent(e.target.value)} aria-label={t('reviewLabels.text')} maxLength={5000} autoFocus />
      <label className="muted small check-label">
        <input type="checkbox" checked={spoilers} onChange={(e) => setSpoilers(e.target.checked)} data-testid="edit-spoilers" /> {t('composer.spoilers')}
      </label>
      {review.images.map((src, i) => (
        <div key={`${i}:${src}`} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
          {/* Decorative: the label beside it names the image. */}
          <img src={src} alt="" style={{ width: 48, height: 48, objectFit: 'cover', borderRadius: 8, flex: 'none' }} />
          <label className="muted small" style={{ flex: 1 }}>
            {t('hashtags.altLabel', { n: i + 1 })}
            <input
              type="text"
              value={alts[i]}
              maxLength={IMAGE_ALT_MAX}
              placeholder={t('hashtags.altPlaceholder')}
              onChange={(e) => setAlts((as) => as.map((a, j) => (j === i ? e.target.value : a)))}
              data-testid="edit-alt"
            />
          </label>
        </div>
      ))}
      {error && <div className="error-bar">{error}</div>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => onDone(null)}>
          {t('review.cancel')}
        </button>
        <button className="btn btn-primary" disabled={!content.trim() || state.isLoading}>
          {t('review.save')}
        </button>
      </div>
    </form>
  );
}
