import { useState, type FormEvent } from 'react';
import type { TwoFactorSetupView } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { Spinner } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { useT } from '../../shared/i18n';
import { useDisableTwoFactorMutation, useEnableTwoFactorMutation, useSetupTwoFactorMutation, useTwoFactorStatusQuery } from './accountApi';

/** Settings > Two-factor: enrol with a QR code and a first code, see the recovery codes once, or turn it off. */
export function TwoFactorSection() {
  const t = useT();
  const status = useTwoFactorStatusQuery();
  const [setup, setupState] = useSetupTwoFactorMutation();
  const [enable, enableState] = useEnableTwoFactorMutation();
  const [disable, disableState] = useDisableTwoFactorMutation();
  const [pending, setPending] = useState<TwoFactorSetupView | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [copied, flashCopied] = useTimedFlag(2000);

  async function start() {
    setError(null);
    const r = await setup();
    if ('error' in r) return setError(errorMessage(r.error, t('twoFactor.setupFailed')));
    setPending(r.data);
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await enable({ code: code.replace(/\s/g, '') });
    if ('error' in r) return setError(errorMessage(r.error, t('twoFactor.invalidCode')));
    setPending(null);
    setCode('');
    setRecovery(r.data.recovery_codes);
  }

  async function turnOff(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await disable({ password });
    if ('error' in r) return setError(errorMessage(r.error, t('twoFactor.disableFailed')));
    setPassword('');
    setRecovery(null);
  }

  if (status.isLoading) return <Spinner label={t('twoFactor.loading')} />;
  const enabled = status.data?.enabled ?? false;

  return (
    <div className="form" data-testid="settings-two-factor">
      <h2>{t('twoFactor.title')}</h2>
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      {recovery && (
        <div className="success-bar" data-testid="recovery-codes">
          <p>{t('twoFactor.recoveryCodes')}</p>
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
          <p className="muted">{t('twoFactor.intro')}</p>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" onClick={() => void start()} disabled={setupState.isLoading}>
              {t('twoFactor.setUp')}
            </button>
          </div>
        </>
      )}
      {!enabled && pending && (
        <form onSubmit={confirm} className="form">
          <p className="muted">{t('twoFactor.scan')}</p>
          <div className="two-factor-setup">
            <img src={pending.qr_code} alt={t('twoFactor.qrAlt')} width={220} height={220} data-testid="two-factor-qr" />
            {/* a phone cannot scan its own screen: the same key as text, to type or paste into the app */}
            <div>
              <p className="muted small">{t('live.twoFactorKey')}</p>
              <code className="two-factor-key" data-testid="two-factor-key">
                {groupedKey(pending.otpauth_url)}
              </code>
              <div className="form-actions">
                <button type="button" className="btn btn-sm" onClick={() => void copyText(keyOf(pending.otpauth_url)).then((ok) => ok && flashCopied())} data-testid="two-factor-copy">
                  {copied ? t('live.twoFactorCopied') : t('live.twoFactorCopy')}
                </button>
              </div>
            </div>
          </div>
          <label>
            {t('twoFactor.code')}
            <input name="code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" required />
          </label>
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setPending(null)}>
              {t('twoFactor.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={enableState.isLoading}>
              {t('twoFactor.turnOn')}
            </button>
          </div>
        </form>
      )}
      {enabled && (
        <form onSubmit={turnOff} className="form">
          <p className="muted">
            {t('twoFactor.onWithCodesLeft')} <strong data-testid="recovery-left">{status.data?.recovery_codes_left ?? 0}</strong>
          </p>
          <label>
            {t('twoFactor.password')}
            <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
          </label>
          <div className="form-actions">
            <button type="submit" className="btn" disabled={disableState.isLoading}>
              {t('twoFactor.turnOff')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** The secret of an otpauth:// URL (base32), as the app takes it typed. */
function keyOf(otpauthUrl: string): string {
  return new URL(otpauthUrl).searchParams.get('secret') ?? '';
}

/** The key in groups of four, easier to read and type. */
function groupedKey(otpauthUrl: string): string {
  return keyOf(otpauthUrl).replace(/(.{4})(?=.)/g, '$1 ');
}
