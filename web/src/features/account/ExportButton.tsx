import { useState } from 'react';
import { useSession } from '../../core/store';
import { useT } from '../../shared/i18n';

/** Settings: downloads GET /api/users/me/export as a JSON file (a fetch, since the call needs the bearer token). */
export function ExportButton() {
  const t = useT();
  const { token } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/users/me/export', { headers: { authorization: `Bearer ${token ?? ''}` } });
      if (!res.ok) throw new Error(String(res.status));
      const { data } = (await res.json()) as { data: unknown };
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `squadreviews-export-${new Date().toISOString().slice(0, 10)}.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch {
      setError(t('dataExport.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="form" data-testid="settings-export">
      <h2>{t('dataExport.title')}</h2>
      <p className="muted">{t('dataExport.hint')}</p>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => void download()} disabled={busy}>
          {t('dataExport.download')}
        </button>
      </div>
    </div>
  );
}
