import { useCallback, useRef, useState } from 'react';
import { Bookmark, BookmarkCheck, Calendar, Ellipsis, Flag, Heart, Link as LinkIcon, MapPin, MessageCircle, Pencil, Share2, Trash2, VolumeX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useSession } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar, Stars } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useClickOutside } from '../../shared/useClickOutside';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { personName, productSlug, turkishAgo, turkishLongDate } from '../../shared/format';
import type { ReviewView } from '@app/contracts';
import { ImageViewer } from './ImageViewer';
import { Comments } from './Comments';
import { useDeleteReviewMutation, useReportReviewMutation, useSaveReviewMutation, useToggleLikeMutation } from './reviewsApi';
import { ReviewEditForm } from './ReviewEditForm';
import { setMuted } from './mutedUsers';

export function reviewLink(r: ReviewView): string {
  const base = window.location.origin;
  if (r.product) return `${base}/product/${productSlug({ slug: (r.product as { slug?: string }).slug, name: r.product.name })}#review-${r.id}`;
  if (r.user?.username) return `${base}/user/${r.user.username}#review-${r.id}`;
  return `${base}/home#review-${r.id}`;
}

function useMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  return { open, setOpen, ref, close };
}

export function ReviewCard({ review: given, timeStyle = 'relative' }: { review: ReviewView; timeStyle?: 'relative' | 'date' }) {
  const dispatch = useAppDispatch();
  const { user } = useSession();
  // an edit shows at once, before the lists refetch
  const [edited, setEdited] = useState<ReviewView | null>(null);
  const review = edited && edited.id === given.id ? { ...given, ...edited } : given;
  const [editing, setEditing] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const [deleteReview, deleteState] = useDeleteReviewMutation();
  const mine = !!user && review.user_id === user.id;
  const [liked, setLiked] = useState(!!review.liked);
  const [likes, setLikes] = useState(review.like_count);
  const [saved, setSaved] = useState(!!review.saved);
  const [comments, setComments] = useState(review.comment_count);
  const [showComments, setShowComments] = useState(false);
  const [viewer, setViewer] = useState<number | null>(null);
  const [copied, flashCopied] = useTimedFlag(2000);
  const share = useMenu();
  const more = useMenu();
  const [toggleLike, likeState] = useToggleLikeMutation();
  const [saveReview] = useSaveReviewMutation();
  const [report] = useReportReviewMutation();
  const images = review.images ?? [];
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
      dispatch(pushToast({ title: 'Hata', message: errorMessage(r.error, 'Failed to toggle like'), kind: 'error' }));
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
      dispatch(pushToast({ title: 'Hata', message: errorMessage(r.error, 'Failed to save review'), kind: 'error' }));
    }
  }

  async function copyLink(closeMenu: () => void) {
    const ok = await copyText(link);
    if (ok) flashCopied();
    else console.error('Clipboard unavailable');
    closeMenu();
  }

  async function remove() {
    more.close();
    if (!window.confirm('Delete this review?')) return;
    const r = await deleteReview(review.id);
    if ('error' in r) dispatch(pushToast({ title: 'Hata', message: errorMessage(r.error, 'Failed to delete review'), kind: 'error' }));
    else setDeleted(true);
  }

  if (deleted) return null;
  const shareUrl = encodeURIComponent(link);
  const shareText = encodeURIComponent(review.title || (review.content ?? '').slice(0, 100));

  return (
    <article className="card review-card" id={`review-${review.id}`} data-testid="review-card">
      <header className="review-head">
        <Avatar src={review.user?.profile_image_url} name={personName(review.user)} size={42} />
        <div className="review-author">
          {review.user?.username ? (
            <Link to={`/user/${review.user.username}`} className="strong">
              {personName(review.user)}
            </Link>
          ) : (
            <span className="strong">{personName(review.user)}</span>
          )}
          <span className="muted small">
            @{review.user?.username ?? 'unknown'} · <time dateTime={when}>{timeStyle === 'relative' ? turkishAgo(when) : turkishLongDate(when)}</time>
            {review.edited || (review.updated_at && review.updated_at !== review.created_at && review.edited !== false) ? (
              <span data-testid="edited-label"> · düzenlendi</span>
            ) : (
              ''
            )}
          </span>
        </div>
        <div className="menu-wrap" ref={more.ref}>
          <button className="icon-btn" aria-label="More actions" onClick={() => more.setOpen((o) => !o)}>
            <Ellipsis size={18} aria-hidden="true" />
          </button>
          {more.open && (
            <div className="dropdown menu-dropdown right">
              {mine && (
                <>
                  <button
                    className="dropdown-item"
                    onClick={() => {
                      more.close();
                      setEditing(true);
                    }}
                    data-testid="review-edit-button"
                  >
                    <Pencil size={14} aria-hidden="true" /> Edit review
                  </button>
                  <button className="dropdown-item" onClick={() => void remove()} disabled={deleteState.isLoading} data-testid="review-delete-button">
                    <Trash2 size={14} aria-hidden="true" /> Delete review
                  </button>
                </>
              )}
              <button
                className="dropdown-item"
                onClick={async () => {
                  more.close();
                  const r = await report({ id: review.id, reason: 'inappropriate' });
                  dispatch(
                    'error' in r
                      ? pushToast({ title: 'Hata', message: errorMessage(r.error, 'Failed to report review'), kind: 'error' })
                      : pushToast({ title: 'Report review', message: 'Thanks, the review was reported.', kind: 'success' }),
                  );
                }}
              >
                <Flag size={14} aria-hidden="true" /> Report review
              </button>
              {user && review.user_id !== user.id && (
                <button
                  className="dropdown-item"
                  onClick={() => {
                    more.close();
                    setMuted(review.user_id, true);
                    dispatch(pushToast({ title: 'Mute this user', message: `Reviews by @${review.user?.username ?? 'user'} are hidden.`, kind: 'info' }));
                  }}
                >
                  <VolumeX size={14} aria-hidden="true" /> Mute this user
                </button>
              )}
              <button className="dropdown-item" onClick={() => copyLink(more.close)}>
                <LinkIcon size={14} aria-hidden="true" /> Copy link to review
              </button>
            </div>
          )}
        </div>
      </header>

      {review.product && (
        <Link
          to={`/product/${productSlug({ slug: (review.product as { slug?: string }).slug, name: review.product.name })}`}
          className="product-chip"
          data-testid="product-chip"
        >
          {review.product.image_url && <img src={review.product.image_url} alt="" />}
          {review.product.name}
        </Link>
      )}
      {typeof review.rating === 'number' && review.rating > 0 && <Stars value={review.rating} />}
      {review.title && !review.product && <h4 className="review-title">{review.title}</h4>}
      {editing ? (
        <ReviewEditForm
          review={review}
          onDone={(updated) => {
            setEditing(false);
            if (updated) setEdited({ ...updated, edited: true });
          }}
        />
      ) : (
        <p className="review-content pre-wrap">{review.content}</p>
      )}
      {(review.location || review.date) && (
        <p className="muted small">
          {review.location && <><MapPin size={14} aria-hidden="true" /> {review.location} </>}
          {review.date && <><Calendar size={14} aria-hidden="true" /> {turkishLongDate(review.date)}</>}
        </p>
      )}
      {images.length > 0 && (
        <div className={`image-grid n${Math.min(images.length, 4)}`}>
          {images.slice(0, 4).map((src, i) => (
            <button key={src + i} className="image-cell" onClick={() => setViewer(i)}>
              <img src={src} alt={`Review image ${i + 1}`} loading="lazy" />
              {i === 3 && images.length > 4 && <span className="more-images">+{images.length - 4}</span>}
            </button>
          ))}
        </div>
      )}

      <footer className="review-actions">
        <button className={`action ${liked ? 'liked' : ''}`} onClick={like} aria-pressed={liked} aria-label="Like" data-testid="like-button">
          <Heart size={16} aria-hidden="true" fill={liked ? 'currentColor' : 'none'} /> <span data-testid="like-count">{likes}</span>
        </button>
        <button className="action" onClick={() => setShowComments((s) => !s)} data-testid="comment-button" aria-label="Comments">
          <MessageCircle size={16} aria-hidden="true" /> <span data-testid="comment-count">{comments}</span>
        </button>
        <div className="menu-wrap" ref={share.ref}>
          <button className="action" onClick={() => share.setOpen((o) => !o)} data-testid="share-button" aria-label="Share">
            <Share2 size={16} aria-hidden="true" /> 0
          </button>
          {share.open && (
            <div className="dropdown menu-dropdown">
              <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://twitter.com/intent/tweet?url=${shareUrl}&text=${shareText}`}>
                Twitter
              </a>
              <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://www.facebook.com/sharer/sharer.php?u=${shareUrl}`}>
                Facebook
              </a>
              <a className="dropdown-item" target="_blank" rel="noreferrer" href={`https://www.linkedin.com/sharing/share-offsite/?url=${shareUrl}`}>
                LinkedIn
              </a>
              <button className="dropdown-item" onClick={() => copyLink(() => undefined)}>
                {copied ? 'Copied!' : 'Copy link'}
              </button>
            </div>
          )}
        </div>
        {copied && !share.open && <span className="muted small">Copied!</span>}
        <button className={`action push-right ${saved ? 'saved' : ''}`} onClick={toggleSave} aria-pressed={saved} data-testid="save-button">
          {saved ? <BookmarkCheck size={16} aria-hidden="true" /> : <Bookmark size={16} aria-hidden="true" />} {saved ? 'Saved' : 'Save'}
        </button>
      </footer>
      {showComments && <Comments reviewId={review.id} reviewAuthorId={review.user_id} onCount={(d) => setComments((c) => Math.max(0, c + d))} />}
      {viewer !== null && <ImageViewer images={images} start={viewer} onClose={() => setViewer(null)} />}
    </article>
  );
}
