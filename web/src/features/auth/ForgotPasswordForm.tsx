import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../core/api';
import { useT } from '../../shared/i18n';
import { emailLanguage, useRequestPasswordResetMutation } from './authApi';

/** Asks for a reset link; the answer is the same whether or not the email has an account. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const t = useT();
  const [request, state] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await request({ email: email.trim(), language: emailLanguage() });
    if ('error' in r) return setError(errorMessage(r.error, t('passwordReset.sendFailed')));
    // The same answer whether or not the email has an account, in the member's language.
    setSent(t('passwordReset.sent'));
  }

  return (
    <form className="form auth-form" onSubmit={submit} data-testid="forgot-form">
      {error && (
        <div className="error-bar" role="alert">
          {error}
        </div>
      )}
      {sent ? (
        <p className="success-bar" role="status" data-testid="forgot-sent">
          {sent}
        </p>
      ) : (
        <>
          <p className="muted">{t('passwordReset.hint')}</p>
          <label>
            {t('passwordReset.email')}
            <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
          </label>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onBack}>
          {t('passwordReset.back')}
        </button>
        {!sent && (
          <button type="submit" className="btn btn-primary" disabled={state.isLoading}>
            {t('passwordReset.send')}
          </button>
        )}
      </div>
    </form>
  );
}
