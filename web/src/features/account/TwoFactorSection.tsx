import { useState, type FormEvent } from 'react';
import type { TwoFactorSetupView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { Spinner } from '../../shared/ui';
import { useDisableTwoFactorMutation, useEnableTwoFactorMutation, useSetupTwoFactorMutation, useTwoFactorStatusQuery } from './accountApi';

/** Settings > Two-factor: enrol with a QR code and a first code, see the recovery codes once, or turn it off. */
export function TwoFactorSection() {
  const status = useTwoFactorStatusQuery();
  const [setup, setupState] = useSetupTwoFactorMutation();
  const [enable, enableState] = useEnableTwoFactorMutation();
  const [disable, disableState] = useDisableTwoFactorMutation();
  const [pending, setPending] = useState<TwoFactorSetupView | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function start() {
    setError(null);
    const r = await setup();
    if ('error' in r) return setError(errorMessage(r.error, 'Could not start the setup. Please try again.'));
    setPending(r.data);
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await enable({ code: code.replace(/\s/g, '') });
    if ('error' in r) return setError(errorMessage(r.error, 'Invalid code'));
    setPending(null);
    setCode('');
    setRecovery(r.data.recovery_codes);
  }

  async function turnOff(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await disable({ password });
    if ('error' in r) return setError(errorMessage(r.error, 'Could not turn two-factor sign-in off.'));
    setPassword('');
    setRecovery(null);
  }

  if (status.isLoading) return <Spinner label="Loading..." />;
  const enabled = status.data?.enabled ?? false;

  return (
    <div className="form" data-testid="settings-two-factor">
      <h2>Two-factor sign-in</h2>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      {recovery && (
        <div className="success-bar" data-testid="recovery-codes">
          <p>Two-factor sign-in is on. Keep these recovery codes somewhere safe: each works once if you lose your phone. They are shown only now.</p>
          <ul style={{ columns: 2, listStyle: 'none', padding: 0 }}>
            {recovery.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!enabled && !pending && (
        <>
          <p className="muted">Ask for a code from an authenticator app (Google Authenticator, 1Password, Aegis...) each time you sign in.</p>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={setupState.isLoading}>
              Set up two-factor sign-in
            </button>
          </div>
        </>
      )}
      {!enabled && pending && (
        <form onSubmit={confirm} className="form">
          <p className="muted">Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
          <img src={pending.qr_code} alt="QR code for your authenticator app" width={220} height={220} data-testid="two-factor-qr" />
          <label>
            Code
            <input name="code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" required />
          </label>
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setPending(null)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={enableState.isLoading}>
              Turn on
            </button>
          </div>
        </form>
      )}
      {enabled && (
        <form onSubmit={turnOff} className="form">
          <p className="muted">
            Two-factor sign-in is on. Recovery codes left: <strong data-testid="recovery-left">{status.data?.recovery_codes_left ?? 0}</strong>
          </p>
          <label>
            Password
            <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
          </label>
          <div className="form-actions">
            <button type="submit" className="btn" disabled={disableState.isLoading}>
              Turn off
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
