import { memo, useEffect, useState } from 'react';
import { Bookmark, BookmarkCheck, Calendar, Heart, MapPin, MessageCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { ReviewView } from '@app/contracts';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar, Stars } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { personName, productSlug, feedAgo, longDate } from '../../shared/format';
import { ImageViewer } from './ImageViewer';
import { Comments } from './Comments';
import { useSaveReviewMutation, useToggleLikeMutation } from './reviewsApi';
import { ReviewEditForm } from './ReviewEditForm';
import { ReviewHistory } from './ReviewHistory';
import { ReviewImages } from './ReviewImages';
import { reviewLink } from './reviewLink';
import { ReviewMoreMenu } from './ReviewMoreMenu';
import { ReviewShareMenu } from './ReviewShareMenu';
import { useT } from '../../shared/i18n';
import { TaggedText } from '../tags/TaggedText';
import { JoinPrompt, useVisitor } from '../auth/JoinPrompt';

/**
 * A memo: a list draws its cards again each time it grows by a step (useStaged) and at every change of
 * its query's state, and a card whose props did not change is skipped.
 */
export const ReviewCard = memo(function ReviewCard({ review: given, timeStyle = 'relative' }: { review: ReviewView; timeStyle?: 'relative' | 'date' }) {
  const t = useT();
  const dispatch = useAppDispatch();
  // a visitor on a shared page reads the review with its counts; acting on it asks them to sign up
  const visitor = useVisitor();
  // an edit shows at once, before the lists refetch
  const [edited, setEdited] = useState<ReviewView | null>(null);
  const review = edited && edited.id === given.id ? { ...given, ...edited } : given;
  const [editing, setEditing] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const [liked, setLiked] = useState(review.liked);
  const [likes, setLikes] = useState(review.like_count);
  const [saved, setSaved] = useState(review.saved);
  const [comments, setComments] = useState(review.comment_count);
  // a refetched page brings the server's marks and counts (a like or save made on another screen)
  useEffect(() => {
    setLiked(review.liked);
    setLikes(review.like_count);
    setSaved(review.saved);
    setComments(review.comment_count);
  }, [review.liked, review.like_count, review.saved, review.comment_count]);
  const [showComments, setShowComments] = useState(false);
  const [viewer, setViewer] = useState<number | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [showFiltered, setShowFiltered] = useState(false);
  const [copied, flashCopied] = useTimedFlag(2000);
  const [toggleLike, likeState] = useToggleLikeMutation();
  const [saveReview] = useSaveReviewMutation();
  const link = reviewLink(review);
  const when = review.created_at;

  async function like() {
    if (likeState.isLoading) return;
    const before = { liked, likes };
    setLiked(!liked);
    setLikes(likes + (liked ? -1 : 1));
    const r = await toggleLike(review.id);
    if ('error' in r) {
      setLiked(before.liked);
      setLikes(before.likes);
      dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('review.likeFailed')), kind: 'error' }));
    } else if (r.data) {
      setLiked(r.data.liked);
      setLikes(r.data.like_count);
    }
  }

  async function toggleSave() {
    const next = !saved;
    setSaved(next);
    const r = await saveReview({ id: review.id, save: next });
    if ('error' in r) {
      setSaved(!next);
      dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('review.saveFailed')), kind: 'error' }));
    }
  }

  async function copyLink() {
    if (await copyText(link)) flashCopied();
    else console.error('Clipboard unavailable');
  }

  if (deleted) return null;
  // Matched one of the viewer's keyword filters (issue 22 §2): collapsed until asked for.
  if (review.filtered_by && !showFiltered) {
    return (
      <article className="card review-card review-filtered" data-testid="review-filtered">
        <span className="muted">{t('filters.filteredAs', { phrase: review.filtered_by })}</span>{' '}
        <button type="button" className="link" onClick={() => setShowFiltered(true)}>
          {t('filters.showAnyway')}
        </button>
      </article>
    );
  }

  return (
    <article className="card review-card" id={`review-${review.id}`} data-testid="review-card">
      <header className="review-head">
        <Avatar src={review.user.profile_image_url} name={personName(review.user)} size={42} />
        <div className="review-author">
          <Link to={`/user/${review.user.username}`} className="strong">
            {personName(review.user)}
          </Link>
          <span className="muted small">
            @{review.user.username} · <time dateTime={when}>{timeStyle === 'relative' ? feedAgo(when) : longDate(when)}</time>
            {review.edited && (
              <>
                {' · '}
                <button type="button" className="link muted" style={{ fontWeight: 'inherit', fontSize: 'inherit' }} data-testid="edited-label" aria-haspopup="dialog" title={t('review.history')} onClick={() => setHistoryOpen(true)}>
                  {t('review.edited')}
                </button>
              </>
            )}
          </span>
        </div>
        {!visitor && <ReviewMoreMenu review={review} onEdit={() => setEditing(true)} onDeleted={() => setDeleted(true)} onCopyLink={() => void copyLink()} />}
      </header>

      {review.product && (
        <Link to={`/product/${productSlug(review.product)}`} className="product-chip" data-testid="product-chip">
          {review.product.image_url && <img src={review.product.image_url} alt={review.product.image_alt ?? ''} width={18} height={18} loading="lazy" />}
          {review.product.name}
        </Link>
      )}
      {/* While editing, the form's own star input stands in for these. */}
      {!editing && typeof review.rating === 'number' && review.rating > 0 && <Stars value={review.rating} />}
      {review.title && !review.product && <h2 className="review-title">{review.title}</h2>}
      {editing ? (
        <ReviewEditForm
          review={review}
          onDone={(updated) => {
            setEditing(false);
            if (updated) setEdited({ ...updated, edited: true });
          }}
        />
      ) : review.has_spoilers && !revealed ? (
        // The text is not in the page until asked for, so it cannot be read by accident (or by selection).
        <p className="review-content">
          <button type="button" className="btn spoiler-button" data-testid="spoiler-reveal" aria-expanded={false} onClick={() => setRevealed(true)}>
            {t('review.spoiler')}
          </button>
        </p>
      ) : (
        <>
          <p className="review-content pre-wrap">
            <TaggedText text={review.content} />
          </p>
          {review.has_spoilers && (
            <button type="button" className="link muted small" aria-expanded onClick={() => setRevealed(false)}>
              {t('review.hideSpoiler')}
            </button>
          )}
        </>
      )}
      {(review.location || review.date) && (
        <p className="muted small">
          {review.location && <><MapPin size={14} aria-hidden="true" /> {review.location} </>}
          {review.date && <><Calendar size={14} aria-hidden="true" /> {longDate(review.date)}</>}
        </p>
      )}
      {review.images.length > 0 && (!review.has_spoilers || revealed) && <ReviewImages images={review.images} alts={review.image_alts} onOpen={setViewer} />}

      {visitor ? (
        <footer className="review-actions" data-testid="visitor-actions">
          <span className="action">
            <Heart size={16} aria-hidden="true" /> <span className="sr-only">{t('review.like')}</span> <span data-testid="like-count">{likes}</span>
          </span>
          <span className="action">
            <MessageCircle size={16} aria-hidden="true" /> <span className="sr-only">{t('review.comments')}</span> <span data-testid="comment-count">{comments}</span>
          </span>
          <JoinPrompt text={t('truth.joinToAct')} className="link small push-right" />
        </footer>
      ) : (
      <footer className="review-actions">
        <button className={`action ${liked ? 'liked' : ''}`} onClick={like} aria-pressed={liked} data-testid="like-button">
          <Heart size={16} aria-hidden="true" fill={liked ? 'currentColor' : 'none'} /> <span className="sr-only">{t('review.like')}</span> <span data-testid="like-count">{likes}</span>
        </button>
        <button className="action" onClick={() => setShowComments((s) => !s)} data-testid="comment-button" aria-expanded={showComments}>
          <MessageCircle size={16} aria-hidden="true" /> <span className="sr-only">{t('review.comments')}</span> <span data-testid="comment-count">{comments}</span>
        </button>
        <ReviewShareMenu link={link} text={review.title || (review.has_spoilers ? t('composer.spoilers') : review.content.slice(0, 100))} copied={copied} onCopyLink={() => void copyLink()} />
        <button className={`action push-right ${saved ? 'saved' : ''}`} onClick={toggleSave} aria-pressed={saved} data-testid="save-button">
          {saved ? <BookmarkCheck size={16} aria-hidden="true" /> : <Bookmark size={16} aria-hidden="true" />} {saved ? t('common.saved') : t('common.save')}
        </button>
      </footer>
      )}
      {showComments && <Comments reviewId={review.id} reviewAuthorId={review.user_id} onCount={(d) => setComments((c) => Math.max(0, c + d))} />}
      {historyOpen && <ReviewHistory reviewId={review.id} spoiler={review.has_spoilers} onClose={() => setHistoryOpen(false)} />}
      {viewer !== null && <ImageViewer images={review.images} alts={review.image_alts} start={viewer} onClose={() => setViewer(null)} />}
    </article>
  );
});
