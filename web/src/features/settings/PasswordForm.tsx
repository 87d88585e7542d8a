import { useState, type FormEvent } from 'react';
import { useAppDispatch, useSession } from '../../core/store';
import { signedIn } from '../../core/session';
import { useChangePasswordMutation } from '../auth/authApi';
import { translate, useT } from '../../shared/i18n';
import { errorCode } from '../../core/api';

/** A 400 reply's field errors ({ message: [...] } or { errors: { field: [...] } }) as lines to show. */
export function fieldErrors(error: unknown): string[] {
  const d = (error as { data?: { message?: unknown; errors?: Record<string, unknown> } } | undefined)?.data;
  // the server writes in English: a Turkish screen says what went wrong by code
  if (document.documentElement.lang === 'tr') {
    const code = errorCode(error);
    return [translate(code === 'WRONG_CURRENT_PASSWORD' ? 'settings.wrongPassword' : code === 'WEAK_PASSWORD' ? 'authErrors.weakPassword' : 'settings.passwordFailed')];
  }
  // the server writes in English: a Turkish screen says what went wrong by code
  if (document.documentElement.lang === 'tr') {
    const code = errorCode(error);
    return [translate(code === 'WRONG_CURRENT_PASSWORD' ? 'settings.wrongPassword' : code === 'WEAK_PASSWORD' ? 'authErrors.weakPassword' : 'settings.passwordFailed')];
  }
  if (d?.errors && typeof d.errors === 'object') return Object.values(d.errors).flat().map(String);
  if (Array.isArray(d?.message)) return d.message.map(String);
  if (typeof d?.message === 'string' && d.message) return [d.message];
  return [translate('settings.passwordFailed')];
}

/** PUT /auth/password; the reply's new token replaces the stored one (the old one stops working). */
export function PasswordForm({ onDone }: { onDone: (message: string) => void }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const { user } = useSession();
  const [change, state] = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<string[]>([]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (next !== confirm) return setErrors([t('passwordReset.mismatch')]);
    const r = await change({ current_password: current, new_password: next });
    if ('error' in r) return setErrors(fieldErrors(r.error));
    if (user && r.data?.token) dispatch(signedIn({ token: r.data.token, user }));
    setErrors([]);
    setCurrent('');
    setNext('');
    setConfirm('');
    onDone(t('settings.passwordChanged'));
  }

  return (
    <form className="form" onSubmit={submit} data-testid="settings-password">
      <h2>{t('settings.password')}</h2>
      <label>
        {t('settings.currentPassword')}
        <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} required />
      </label>
      <label>
        {t('settings.newPassword')}
        <input type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required />
      </label>
      <label>
        {t('settings.confirmPassword')}
        <input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} required />
      </label>
      {errors.length > 0 && (
        <div className="error-bar" role="alert">
          {errors.map((m) => (
            <div key={m}>{m}</div>
          ))}
        </div>
      )}
      <div className="form-actions">
        <button className="btn btn-primary" disabled={state.isLoading || !current || !next}>
          {t('settings.changePassword')}
        </button>
      </div>
    </form>
  );
}
