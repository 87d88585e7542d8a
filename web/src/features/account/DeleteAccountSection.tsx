import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { TriangleAlert } from 'lucide-react';
import { errorCode } from '../../core/api';
import { useAppDispatch } from '../../core/store';
import { signedOut } from '../../core/session';
import { useT } from '../../shared/i18n';
import { useDeleteAccountMutation, useTwoFactorStatusQuery } from './accountApi';

/**
 * Settings' danger zone (issue 20 §5): the password confirms, the server erases the account in
 * every service and ends every session; this tab then signs out and lands on the public page.
 */
export function DeleteAccountSection() {
  const t = useT();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [remove, state] = useDeleteAccountMutation();
  // with two-factor on, the server asks for a code as a sign-in would (issue 43 §5)
  const twoFactorOn = useTwoFactorStatusQuery().data?.enabled ?? false;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = await remove(twoFactorOn ? { password, code: code.replace(/\s/g, '') } : { password });
    if ('error' in r) return setError(failure(errorCode(r.error)));
    dispatch(signedOut());
    navigate('/', { replace: true });
  }

  function failure(code: string | undefined): string {
    if (code === 'WRONG_CURRENT_PASSWORD') return t('deleteAccount.wrongPassword');
    if (code === 'INVALID_TWO_FACTOR_CODE' || code === 'TWO_FACTOR_CODE_REQUIRED') return t('live.deleteWrongCode');
    return t('deleteAccount.failed');
  }

  return (
    <form className="form" onSubmit={submit} data-testid="settings-delete-account">
      <h2 style={{ color: 'var(--danger)' }}>{t('deleteAccount.title')}</h2>
      <p className="muted" role="note">
        <TriangleAlert size={16} aria-hidden /> {t('deleteAccount.warning')}
      </p>
      <label>
        {t('deleteAccount.password')}
        <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </label>
      {twoFactorOn && (
        <label>
          {t('live.deleteCode')}
          <input name="code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" required data-testid="delete-account-code" />
        </label>
      )}
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        <button className="btn btn-danger" disabled={state.isLoading || !password || (twoFactorOn && !code.trim())}>
          {t('deleteAccount.confirm')}
        </button>
      </div>
    </form>
  );
}
