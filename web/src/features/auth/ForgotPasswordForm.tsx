import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../core/api';
import { emailLanguage, useRequestPasswordResetMutation } from './authApi';

/** Asks for a reset link; the answer is the same whether or not the email has an account. */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [request, state] = useRequestPasswordResetMutation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const r = await request({ email: email.trim(), language: emailLanguage() });
    if ('error' in r) return setError(errorMessage(r.error, 'Could not send the link. Please try again.'));
    setSent(r.data.message ?? 'If an account uses this email, a reset link is on its way.');
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
          <p className="muted">Enter your email and we will send you a link to choose a new password.</p>
          <label>
            Email
            <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
          </label>
        </>
      )}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onBack}>
          Back to log in
        </button>
        {!sent && (
          <button type="submit" className="btn btn-primary" disabled={state.isLoading}>
            Send reset link
          </button>
        )}
      </div>
    </form>
  );
}
