import { useState } from 'react';
import { Ellipsis, Flag, Link as LinkIcon, Pencil, Trash2, VolumeX } from 'lucide-react';
import type { ReviewView } from '@app/contracts';
import { useAppDispatch, useSession } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { useMenu } from '../../shared/useMenu';
import { useT } from '../../shared/i18n';
import { useMuteMutation } from '../people/peopleApi';
import { ReportDialog } from '../moderation/ReportDialog';
import { useDeleteReviewMutation, useReportReviewMutation } from './reviewsApi';

/** The card's '...' menu: edit and delete for the author; report and mute for the others; copy the link. */
export function ReviewMoreMenu({ review, onEdit, onDeleted, onCopyLink }: { review: ReviewView; onEdit: () => void; onDeleted: () => void; onCopyLink: () => void }) {
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const menu = useMenu();
  const [deleteReview, deleteState] = useDeleteReviewMutation();
  const [report] = useReportReviewMutation();
  const [mute] = useMuteMutation();
  const t = useT();
  const mine = !!user && review.user_id === user.id;
  const [reporting, setReporting] = useState(false);

  async function remove() {
    menu.close();
    if (!window.confirm(t('review.confirmDelete'))) return;
    const r = await deleteReview(review.id);
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('review.deleteFailed')), kind: 'error' }));
    else onDeleted();
  }

  async function reportReview(reason: string): Promise<boolean> {
    const r = await report({ id: review.id, reason });
    dispatch(
      'error' in r
        ? pushToast({ title: t('common.error'), message: errorMessage(r.error, t('review.reportFailed')), kind: 'error' })
        : pushToast({ title: t('review.report'), message: t('review.reported'), kind: 'success' }),
    );
    return !('error' in r);
  }

  async function muteAuthor() {
    menu.close();
    const r = await mute({ id: review.user_id, mute: true });
    dispatch(
      'error' in r
        ? pushToast({ title: t('review.mute'), message: errorMessage(r.error, t('review.muteFailed')), kind: 'error' })
        : pushToast({ title: t('review.mute'), message: t('review.muted', { username: review.user.username }), kind: 'info' }),
    );
  }

  return (
    <div className="menu-wrap" ref={menu.ref}>
      <button className="icon-btn" aria-label={t('reviewLabels.more')} onClick={() => menu.setOpen((o) => !o)}>
        <Ellipsis size={18} aria-hidden="true" />
      </button>
      {menu.open && (
        <div className="dropdown menu-dropdown right">
          {mine && (
            <>
              <button
                className="dropdown-item"
                onClick={() => {
                  menu.close();
                  onEdit();
                }}
                data-testid="review-edit-button"
              >
                <Pencil size={14} aria-hidden="true" /> {t('reviewLabels.edit')}
              </button>
              <button className="dropdown-item" onClick={() => void remove()} disabled={deleteState.isLoading} data-testid="review-delete-button">
                <Trash2 size={14} aria-hidden="true" /> {t('review.delete')}
              </button>
            </>
          )}
          {/* one's own review is not reported: the server refuses it (CANNOT_REPORT_OWN_REVIEW) */}
          {!mine && (
            <button
              className="dropdown-item"
              onClick={() => {
                menu.close();
                setReporting(true);
              }}
              data-testid="review-report-button"
            >
              <Flag size={14} aria-hidden="true" /> {t('review.report')}
            </button>
          )}
          {user && !mine && (
            <button className="dropdown-item" onClick={() => void muteAuthor()} data-testid="review-mute-button">
              <VolumeX size={14} aria-hidden="true" /> {t('review.mute')}
            </button>
          )}
          <button
            className="dropdown-item"
            onClick={() => {
              onCopyLink();
              menu.close();
            }}
          >
            <LinkIcon size={14} aria-hidden="true" /> {t('review.copyLink')}
          </button>
        </div>
      )}
      {reporting && <ReportDialog title={t('review.report')} onSend={reportReview} onClose={() => setReporting(false)} />}
    </div>
  );
}
