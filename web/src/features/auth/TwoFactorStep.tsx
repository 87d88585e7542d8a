import { useState, type FormEvent } from 'react';
import type { AuthResult } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { useVerifyTwoFactorMutation, validAuthReply } from './authApi';

/** The login's second step: a code from the authenticator app, or one of the recovery codes. */
export function TwoFactorStep({ challenge, onSignedIn, onRestart }: { challenge: string; onSignedIn: (result: AuthResult) => void; onRestart: () => void }) {
  const [verify, state] = useVerifyTwoFactorMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await verify({ challenge, code: code.trim() });
    if ('error' in r) return setError(errorMessage(r.error, 'Invalid code'));
    if (!validAuthReply(r.data)) return setError('Unexpected reply; please sign in again.');
    onSignedIn(r.data.data);
  }

  return (
    <form className="form auth-form" onSubmit={submit} data-testid="two-factor-form">
      {error && (
        <div className="error-bar" role="alert" data-testid="auth-error">
          {error}
        </div>
      )}
      <p className="muted">Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <label>
        Code
        <input name="code" value={code} onChange={(e) => setCode(e.target.value)} required autoComplete="one-time-code" inputMode="text" autoFocus />
      </label>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onRestart}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={state.isLoading}>
          Verify
        </button>
      </div>
    </form>
  );
}
