import { useState } from 'react';
import type { ModerationReportView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useDismissReportMutation, useHideReviewMutation, useSuspendMemberMutation } from './moderationApi';

const SUSPENSION_HOURS = [24, 24 * 7, 24 * 30] as const;

/** One report with the reported review and the actions; every action needs a reason. */
export function ReportItem({ report }: { report: ModerationReportView }) {
  const t = useT();
  const [reason, setReason] = useState('');
  const [hours, setHours] = useState<number>(SUSPENSION_HOURS[0]);
  const [error, setError] = useState<string | null>(null);
  const [dismiss, dismissState] = useDismissReportMutation();
  const [hide, hideState] = useHideReviewMutation();
  const [suspend, suspendState] = useSuspendMemberMutation();
  const busy = dismissState.isLoading || hideState.isLoading || suspendState.isLoading;
  const review = report.review;
  const why = reason.trim();

  async function run(action: () => Promise<{ error?: unknown } | { data?: unknown }>) {
    const r = await action();
    if ('error' in r && r.error) return setError(errorMessage(r.error, t('moderation.actionFailed')));
    setError(null);
    setReason('');
  }

  return (
    <li className="card" data-testid="moderation-report">
      <div className="muted small">
        {t('moderation.reportedBy', { name: personName(report.reporter) })}
        {report.reason ? ` · ${report.reason}` : ''}
      </div>
      {review ? (
        <blockquote data-testid="moderation-report-review">
          <div className="strong">{personName(review.user)} · {review.title}</div>
          <p>{review.content}</p>
          {review.hidden && <span className="muted small">{t('moderation.hidden')}</span>}
        </blockquote>
      ) : (
        <p className="muted">{t('moderation.reviewGone')}</p>
      )}
      <label>
        {t('moderation.reason')}
        <input data-testid="moderation-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && <p className="error-text">{error}</p>}
      <div className="row-actions">
        <button className="btn btn-sm" disabled={busy || !why} onClick={() => void run(() => dismiss({ id: report.id, reason: why }))}>
          {t('moderation.dismiss')}
        </button>
        {review && (
          <button className="btn btn-sm" data-testid="moderation-hide" disabled={busy || !why} onClick={() => void run(() => hide({ id: review.id, reason: why, hide: !review.hidden }))}>
            {review.hidden ? t('moderation.unhide') : t('moderation.hide')}
          </button>
        )}
        {review && (
          <>
            <select aria-label={t('moderation.duration')} value={hours} onChange={(e) => setHours(Number(e.target.value))}>
              {SUSPENSION_HOURS.map((h) => (
                <option key={h} value={h}>
                  {t('moderation.days', { count: h / 24 })}
                </option>
              ))}
            </select>
            <button className="btn btn-sm btn-danger" disabled={busy || !why} onClick={() => void run(() => suspend({ userId: review.user.id, hours, reason: why }))}>
              {t('moderation.suspend')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
