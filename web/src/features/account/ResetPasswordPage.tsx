import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { useT } from '../../shared/i18n';
import { useConfirmPasswordResetMutation } from '../auth/authApi';

/** /reset-password?token=...: the page the emailed link opens. */
export function ResetPasswordPage() {
  const t = useT();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [confirmReset, state] = useConfirmPasswordResetMutation();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== again) return setError(t('passwordReset.mismatch'));
    setError(null);
    const r = await confirmReset({ token, new_password: password });
    if ('error' in r) return setError(errorMessage(r.error, t('passwordReset.failed')));
    setDone(true);
  }

  return (
    <main className="page" style={{ maxWidth: 480, margin: '3rem auto' }}>
      <form className="card form" onSubmit={submit} data-testid="reset-password">
        <h1 className="page-title">{t('passwordReset.pageTitle')}</h1>
        {!token && <div className="error-bar">{t('passwordReset.needsLink')}</div>}
        {error && (
          <div className="error-bar" role="alert" data-testid="reset-error">
            {error}
          </div>
        )}
        {done ? (
          <p className="success-bar" role="status" data-testid="reset-done">
            {t('passwordReset.done')} <Link to="/login">{t('passwordReset.logIn')}</Link>
          </p>
        ) : (
          <>
            <label>
              {t('passwordReset.newPassword')}
              <input name="new_password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
            </label>
            <label>
              {t('passwordReset.confirmPassword')}
              <input name="confirm_password" type="password" value={again} onChange={(e) => setAgain(e.target.value)} autoComplete="new-password" required />
            </label>
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={state.isLoading || !token}>
                {t('passwordReset.submit')}
              </button>
            </div>
          </>
        )}
      </form>
    </main>
  );
}
