import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { signedIn } from '../../core/session';
import { Modal } from '../../shared/ui';
import type { AuthResult } from '@app/contracts';
import { challengeOf, emailLanguage, useLoginMutation, useRegisterMutation, validAuthReply } from './authApi';
import { loginErrorText, registerErrorText } from './authErrors';
import { PRODUCT_NAME } from '../../shared/brand';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { applyLanguage, isLanguage, useT } from '../../shared/i18n';
import { setDarkMode } from '../../core/session';
import { accountTheme } from '../settings/settingsApi';
import { TwoFactorStep } from './TwoFactorStep';

const INTERESTS = ['gaming', 'music', 'tech', 'sports', 'art'] as const;

export type AuthMode = 'login' | 'register';

export function AuthModal({ open, mode, onMode, onClose }: { open: boolean; mode: AuthMode; onMode: (m: AuthMode) => void; onClose: () => void }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [login, loginState] = useLoginMutation();
  const [register, registerState] = useRegisterMutation();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [interests, setInterests] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [forgot, setForgot] = useState(false);
  /** Set when the password was right and the account asks for a second factor. */
  const [challenge, setChallenge] = useState<string | null>(null);

  // the error bar disappears after 5 s (part 1 §2)
  useEffect(() => {
    if (!error) return;
    const timer = setTimeout(() => setError(null), 5000);
    return () => clearTimeout(timer);
  }, [error]);

  useEffect(() => {
    setError(null);
    setForgot(false);
    setChallenge(null);
  }, [mode, open]);

  const busy = loginState.isLoading || registerState.isLoading;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (mode === 'register' && !name.trim()) return setError(t('authErrors.nameBlank'));
    if (!email.trim()) return setError(t('authErrors.emailBlank'));
    if (!password.trim()) return setError(t('authErrors.passwordBlank'));
    if (mode === 'login') {
      const r = await login({ email: email.trim(), password });
      if ('error' in r) return setError(loginErrorText(r.error as never));
      const pending = challengeOf(r.data);
      if (pending) return setChallenge(pending);
      if (!validAuthReply(r.data)) return setError(t('authErrors.unexpectedShape'));
      await finish(r.data.data, true);
    } else {
      const r = await register({ email: email.trim(), name: name.trim(), password, language: emailLanguage() });
      if ('error' in r) return setError(registerErrorText(r.error as never));
      if (!validAuthReply(r.data)) return setError(t('authErrors.registerShape'));
      await finish(r.data.data, false);
    }
  }

  /**
   * After a sign-in, the account's language (the one its mail is written in, named by the reply) and theme are
   * applied before its first screen is drawn (a new account has the ones in use).
   */
  async function finish(result: AuthResult, signIn = true) {
    if (signIn) {
      const [theme] = await Promise.all([accountTheme(result.token), isLanguage(result.user.language) ? applyLanguage(result.user.language) : undefined]);
      if (theme && theme !== 'system') dispatch(setDarkMode(theme === 'dark'));
    }
    dispatch(signedIn({ token: result.token, user: result.user }));
    onClose();
    navigate('/home', { replace: true });
  }

  if (challenge) {
    return (
      <Modal open={open} onClose={onClose} title={t('twoFactor.title')}>
        <TwoFactorStep challenge={challenge} onSignedIn={(result) => void finish(result)} onRestart={() => setChallenge(null)} />
      </Modal>
    );
  }
  if (forgot) {
    return (
      <Modal open={open} onClose={onClose} title={t('passwordReset.modalTitle')}>
        <ForgotPasswordForm onBack={() => setForgot(false)} />
      </Modal>
    );
  }

  return (
    <Modal open={open} onClose={onClose} title={mode === 'login' ? t('auth.welcomeBack') : t('auth.join', { name: PRODUCT_NAME })}>
      <form className="form auth-form" onSubmit={submit} data-testid="auth-form">
        {error && (
          <div className="error-bar" role="alert" data-testid="auth-error">
            {error}
          </div>
        )}
        {mode === 'register' && (
          <label>
            {t('auth.fullName')}
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
          </label>
        )}
        <label>
          {t('auth.email')}
          <input name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
          />
        </label>
        {mode === 'login' && (
          <button type="button" className="link" onClick={() => setForgot(true)} data-testid="forgot-password">
            {t('passwordReset.forgot')}
          </button>
        )}
        {mode === 'register' && (
          <div className="field">
            <span className="label">{t('auth.interests')}</span>
            <div className="chips">
              {INTERESTS.map((i) => (
                <button
                  type="button"
                  key={i}
                  className={`chip ${interests.includes(i) ? 'chip-on' : ''}`}
                  onClick={() => setInterests((l) => (l.includes(i) ? l.filter((x) => x !== i) : [...l, i]))}
                >
                  {t(`auth.interest_${i}`)}
                </button>
              ))}
            </div>
          </div>
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('auth.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {mode === 'login' ? t('auth.logIn') : t('auth.createAccount')}
          </button>
        </div>
        <p className="muted center">
          {mode === 'login' ? t('auth.noAccount') : t('auth.haveAccount')}{' '}
          <button type="button" className="link" onClick={() => onMode(mode === 'login' ? 'register' : 'login')}>
            {mode === 'login' ? t('auth.signUp') : t('auth.switchToLogIn')}
          </button>
        </p>
      </form>
    </Modal>
  );
}
