import { useState, type FormEvent } from 'react';
import type { AuthResult } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { useT } from '../../shared/i18n';
import { useVerifyTwoFactorMutation, validAuthReply } from './authApi';

/** The login's second step: a code from the authenticator app, or one of the recovery codes. */
export function TwoFactorStep({ challenge, onSignedIn, onRestart }: { challenge: string; onSignedIn: (result: AuthResult) => void; onRestart: () => void }) {
  const t = useT();
  const [verify, state] = useVerifyTwoFactorMutation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await verify({ challenge, code: code.trim() });
    if ('error' in r) return setError(errorMessage(r.error, t('twoFactor.invalidCode')));
    if (!validAuthReply(r.data)) return setError(t('twoFactor.unexpectedReply'));
    onSignedIn(r.data.data);
  }

  return (
    <form className="form auth-form" onSubmit={submit} data-testid="two-factor-form">
      {error && (
        <div className="error-bar" role="alert" data-testid="auth-error">
          {error}
        </div>
      )}
      <p className="muted">{t('twoFactor.stepHint')}</p>
      <label>
        {t('twoFactor.code')}
        <input name="code" value={code} onChange={(e) => setCode(e.target.value)} required autoComplete="one-time-code" inputMode="text" autoFocus />
      </label>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onRestart}>
          {t('twoFactor.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={state.isLoading}>
          {t('twoFactor.verify')}
        </button>
      </div>
    </form>
  );
}
