import { useState } from 'react';
import type { ModerationReportView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { reportReasonText } from './reportReasonText';
import { useDismissReportMutation, useHideCommentMutation, useHideReviewMutation, useSuspendMemberMutation } from './moderationApi';

const SUSPENSION_HOURS = [24, 24 * 7, 24 * 30] as const;

/**
 * One report with the reported review, or the reported comment under the review it is on, and the
 * actions (hide and suspend aim at what was reported); every action needs a reason.
 */
export function ReportItem({ report }: { report: ModerationReportView }) {
  const t = useT();
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState<number>(SUSPENSION_HOURS[0]);
  const [error, setError] = useState<string | null>(null);
  const [dismiss, dismissState] = useDismissReportMutation();
  const [hide, hideState] = useHideReviewMutation();
  const [hideComment, hideCommentState] = useHideCommentMutation();
  const [suspend, suspendState] = useSuspendMemberMutation();
  const busy = dismissState.isLoading || hideState.isLoading || hideCommentState.isLoading || suspendState.isLoading;
  const review = report.review;
  const comment = report.comment;
  // What hide and suspend aim at; a report whose content was deleted since leaves only Dismiss.
  const target = report.kind === 'comment' ? comment : review;
  const why = reason.trim();

  function toggleHidden(id: string, hidden: boolean) {
    if (comment) return hideComment({ id, reviewId: comment.review_id, reason: why, hide: !hidden });
    return hide({ id, reason: why, hide: !hidden });
  }

  async function run(action: () => Promise<{ error?: unknown } | { data?: unknown }>) {
    const r = await action();
    if ('error' in r && r.error) return setError(errorMessage(r.error, t('moderation.actionFailed')));
    setError(null);
    setReason('');
  }

  return (
    <li className="card moderation-report" data-testid="moderation-report">
      <div className="muted small">
        {t('moderation.reportedBy', { name: personName(report.reporter) })}
        {report.reason ? ` · ${reportReasonText(report.reason, t)}` : ''}
      </div>
      {review && (
        <blockquote data-testid="moderation-report-review">
          <div className="strong">
            {personName(review.user)}
            {review.title ? ` · ${review.title}` : ''}
          </div>
          <p>{review.content}</p>
          {review.hidden && <span className="muted small">{t('moderation.hidden')}</span>}
        </blockquote>
      )}
      {comment && (
        <blockquote className="moderation-comment" data-testid="moderation-report-comment">
          <div className="strong">{t('moderation.commentBy', { name: personName(comment.user) })}</div>
          <p>{comment.content}</p>
          {comment.hidden && <span className="muted small">{t('moderation.hidden')}</span>}
        </blockquote>
      )}
      {!target && <p className="muted">{report.kind === 'comment' ? t('moderation.commentGone') : t('moderation.reviewGone')}</p>}
      <label className="moderation-reason">
        {t('moderation.reason')}
        <input data-testid="moderation-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && <p className="error-text">{error}</p>}
      <div className="row-actions">
        <button className="btn btn-sm" disabled={busy || !why} onClick={() => void run(() => dismiss({ id: report.id, reason: why }))}>
          {t('moderation.dismiss')}
        </button>
        {target && (
          <button className="btn btn-sm" data-testid="moderation-hide" disabled={busy || !why} onClick={() => void run(() => toggleHidden(target.id, target.hidden))}>
            {target.hidden ? t('moderation.unhide') : comment ? t('moderation.hideComment') : t('moderation.hide')}
          </button>
        )}
        {target && (
          <>
            <select aria-label={t('moderation.duration')} value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {SUSPENSION_HOURS.map((h) => (
                <option key={h} value={h}>
                  {t('moderation.days', { count: h / 24 })}
                </option>
              ))}
            </select>
            <button className="btn btn-sm btn-danger" disabled={busy || !why} onClick={() => void run(() => suspend({ userId: target.user.id, hours, reason: why }))}>
              {t('moderation.suspend')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
