import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { TriangleAlert } from 'lucide-react';
import { errorCode } from '../../core/api';
import { useAppDispatch } from '../../core/store';
import { signedOut } from '../../core/session';
import { useT } from '../../shared/i18n';
import { useDeleteAccountMutation } from './accountApi';

/**
 * Settings' danger zone (issue 20 §5): the password confirms, the server erases the account in
 * every service and ends every session; this tab then signs out and lands on the public page.
 */
export function DeleteAccountSection() {
  const t = useT();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [remove, state] = useDeleteAccountMutation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const r = await remove({ password });
    if ('error' in r) return setError(errorCode(r.error) === 'WRONG_CURRENT_PASSWORD' ? t('deleteAccount.wrongPassword') : t('deleteAccount.failed'));
    dispatch(signedOut());
    navigate('/', { replace: true });
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
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      <div className="form-actions">
        <button className="btn btn-danger" disabled={state.isLoading || !password}>
          {t('deleteAccount.confirm')}
        </button>
      </div>
    </form>
  );
}
