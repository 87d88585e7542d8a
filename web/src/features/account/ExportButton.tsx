import { useState } from 'react';
import { useSession } from '../../core/store';

/** Settings: downloads GET /api/users/me/export as a JSON file (a fetch, since the call needs the bearer token). */
export function ExportButton() {
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
      setError('Could not prepare your data. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="form" data-testid="settings-export">
      <h2>Your data</h2>
      <p className="muted">Download everything you own here as one JSON file: profile, settings, reviews, comments, likes, saved items, follows, squads, the messages you sent and your notifications.</p>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={() => void download()} disabled={busy}>
          Download my data
        </button>
      </div>
    </div>
  );
}
