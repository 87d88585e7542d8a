import { useState, type FormEvent } from 'react';
import { composeReportReason, REPORT_CATEGORIES, REPORT_NOTE_MAX, type ReportCategory } from '@app/contracts/runtime';
import { Modal } from '../../shared/ui';
import { useT } from '../../shared/i18n';

/**
 * Asks why before a review or comment is reported: a category and an optional note for the
 * moderators. `onSend` gets the composed reason and says whether the report went through.
 */
export function ReportDialog({ title, onSend, onClose }: { title: string; onSend: (reason: string) => Promise<boolean>; onClose: () => void }) {
  const t = useT();
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!category) return;
    setSending(true);
    const sent = await onSend(composeReportReason(category, note));
    setSending(false);
    if (sent) onClose();
  }

  return (
    <Modal open onClose={onClose} title={title}>
      <form className="form" onSubmit={submit} data-testid="report-dialog">
        <fieldset className="report-categories">
          <legend>{t('report.question')}</legend>
          {REPORT_CATEGORIES.map((c) => (
            <label key={c} className="radio-row">
              <input type="radio" name="report-category" value={c} checked={category === c} onChange={() => setCategory(c)} />
              {t(`report.${c}`)}
            </label>
          ))}
        </fieldset>
        <label>
          {t('report.note')}
          <textarea value={note} maxLength={REPORT_NOTE_MAX} rows={3} onChange={(e) => setNote(e.target.value)} />
        </label>
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('report.cancel')}
          </button>
          <button type="submit" className="btn btn-danger" disabled={!category || sending}>
            {t('report.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
