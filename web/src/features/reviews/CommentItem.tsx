import { useState, type FormEvent } from 'react';
import { Flag, Pencil, Trash2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { CommentView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { Avatar } from '../../shared/ui';
import { personName, feedAgo } from '../../shared/format';
import { useAppDispatch } from '../../core/store';
import { useT } from '../../shared/i18n';
import { pushToast } from '../../shared/toast';
import { ReportDialog } from '../moderation/ReportDialog';
import { useReportCommentMutation, useUpdateCommentMutation } from './reviewsApi';

/**
 * One comment of a review's thread. Its author may edit it in place (PUT /comments/{id}), and an edited
 * comment says 'düzenlendi'; its author or the review's author may delete it; other members may
 * report it to the moderators (issue 22 §3).
 */
export function CommentItem({
  comment: c,
  canEdit,
  canDelete,
  canReport,
  onDelete,
}: {
  comment: CommentView;
  canEdit: boolean;
  canDelete: boolean;
  canReport: boolean;
  onDelete: () => void;
}) {
  const dispatch = useAppDispatch();
  const t = useT();
  const [report] = useReportCommentMutation();
  const [editing, setEditing] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [text, setText] = useState(c.content);
  const [error, setError] = useState<string | null>(null);
  const [update, updateState] = useUpdateCommentMutation();

  async function save(e: FormEvent) {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    const r = await update({ id: c.id, reviewId: c.reviewId, content });
    if ('error' in r) return setError(errorMessage(r.error, t('comment.updateFailed')));
    setError(null);
    setEditing(false);
  }

  async function reportComment(reason: string): Promise<boolean> {
    const r = await report({ id: c.id, reason });
    dispatch(
      'error' in r
        ? pushToast({ title: t('comment.report'), message: errorMessage(r.error, t('comment.reportFailed')), kind: 'error' })
        : pushToast({ title: t('comment.report'), message: t('comment.reported'), kind: 'success' }),
    );
    return !('error' in r);
  }

  return (
    <div className="comment" data-testid="comment">
      <Avatar src={c.user.profile_image_url} name={personName(c.user)} size={28} />
      <div className="comment-body">
        <div>
          <Link to={`/user/${c.user.username}`} className="strong">
            {personName(c.user)}
          </Link>{' '}
          <span className="muted small">
            {feedAgo(c.createdAt)}
            {c.is_edited && <span data-testid="comment-edited-label"> · {t('comment.edited')}</span>}
          </span>
        </div>
        {editing ? (
          <form className="comment-form" onSubmit={save}>
            <input value={text} maxLength={2000} onChange={(e) => setText(e.target.value)} aria-label={t('comment.text')} autoFocus />
            <button className="btn btn-sm btn-primary" disabled={!text.trim() || updateState.isLoading}>
              {t('common.save')}
            </button>
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => {
                setEditing(false);
                setText(c.content);
                setError(null);
              }}
            >
              {t('common.cancel')}
            </button>
          </form>
        ) : (
          <div className="pre-wrap">{c.content}</div>
        )}
        {error && <p className="error-text small">{error}</p>}
      </div>
      {canEdit && !editing && (
        <button className="icon-btn small" aria-label={t('comment.edit')} data-testid="edit-comment" onClick={() => setEditing(true)}>
          <Pencil size={14} aria-hidden="true" />
        </button>
      )}
      {canReport && (
        <button className="icon-btn small" aria-label={t('comment.report')} title={t('comment.report')} data-testid="report-comment" onClick={() => setReporting(true)}>
          <Flag size={14} aria-hidden="true" />
        </button>
      )}
      {canDelete && (
        <button className="icon-btn small" aria-label={t('comment.delete')} onClick={onDelete}>
          <Trash2 size={14} aria-hidden="true" />
        </button>
      )}
      {reporting && <ReportDialog title={t('comment.report')} onSend={reportComment} onClose={() => setReporting(false)} />}
    </div>
  );
}
