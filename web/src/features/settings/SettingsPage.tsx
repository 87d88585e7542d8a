import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useSession } from '../../core/store';
import { setDarkMode, userLoaded } from '../../core/session';
import { errorMessage, errorStatus } from '../../core/api';
import { Avatar, Spinner } from '../../shared/ui';
import { useTimedMessage } from '../../shared/useTimedMessage';
import { personName } from '../../shared/format';
import type { UserSettings } from '@app/contracts';
import { useProfileQuery, useUpdateProfileMutation } from '../profile/profileApi';
import { useUploadMediaMutation } from '../media/mediaApi';
import { darkFromTheme, useSettingsQuery, useUpdateSettingsMutation } from './settingsApi';
import { PasswordForm } from './PasswordForm';
import { useLogout } from '../auth/useLogout';

type Section = 'profile' | 'notifications' | 'privacy' | 'appearance' | 'password';
const SECTIONS: Array<[Section, string]> = [
  ['profile', 'Profile'],
  ['notifications', 'Notifications'],
  ['privacy', 'Privacy'],
  ['appearance', 'Appearance'],
  ['password', 'Password'],
];

function Banners({ ok, err }: { ok: string | null; err: string | null }) {
  return (
    <>
      {ok && (
        <div className="success-bar" role="status">
          {ok}
        </div>
      )}
      {err && (
        <div className="error-bar" role="alert">
          {err}
        </div>
      )}
    </>
  );
}

export function SettingsPage() {
  const { token, user, darkMode } = useSession();
  const dispatch = useAppDispatch();
  const logout = useLogout();
  const [section, setSection] = useState<Section>('profile');
  const settings = useSettingsQuery(undefined, { skip: !token });
  const profile = useProfileQuery(user?.username ?? '', { skip: !user });
  const [updateProfile, profileState] = useUpdateProfileMutation();
  const [updateSettings, settingsState] = useUpdateSettingsMutation();
  const [upload, uploadState] = useUploadMediaMutation();
  const fileRef = useRef<HTMLInputElement>(null);

  const [form, setForm] = useState({ display_name: '', username: '', bio: '', email: '', profile_image_url: null as string | null });
  const [prefs, setPrefs] = useState<UserSettings>({
    notification_email: true,
    notification_push: true,
    privacy_profile: 'public',
    theme: darkMode ? 'dark' : 'light',
  });
  // success banners clear after 3 s
  const [ok, setOk] = useTimedMessage(3000);
  const [err, setErr] = useTimedMessage(6000);

  useEffect(() => {
    if (profile.data)
      setForm({
        display_name: profile.data.display_name ?? '',
        username: profile.data.username ?? '',
        bio: profile.data.bio ?? '',
        email: profile.data.email ?? user?.email ?? '',
        profile_image_url: profile.data.profile_image_url,
      });
  }, [profile.data, user?.email]);
  useEffect(() => {
    if (settings.data) setPrefs((p) => ({ ...p, ...settings.data }));
  }, [settings.data]);
  useEffect(() => {
    setOk(null);
    setErr(null);
  }, [section]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!token) return <div className="error-bar">Authentication required. Please log in again.</div>;
  if (settings.isLoading || profile.isLoading) return <Spinner label="Loading settings..." />;
  const loadError = settings.isError
    ? errorStatus(settings.error) === 401
      ? 'Session expired. Please log in again.'
      : 'Failed to load settings. Please try again.'
    : null;

  async function saveProfile(e: FormEvent) {
    e.preventDefault();
    // email is shown read-only and never sent (part 2 §2: editing it changed nothing)
    const body = { display_name: form.display_name, username: form.username, bio: form.bio };
    const r = await updateProfile(form.profile_image_url !== profile.data?.profile_image_url ? { ...body, profile_image_url: form.profile_image_url } : body);
    if ('error' in r) return setErr(errorMessage(r.error, 'Failed to update profile. Please try again.'));
    if (user && r.data)
      dispatch(
        userLoaded({
          ...user,
          display_name: r.data.display_name ?? user.display_name,
          username: r.data.username ?? user.username,
          avatar: r.data.profile_image_url ?? user.avatar,
        }),
      );
    setErr(null);
    setOk('Profile updated successfully!');
  }

  async function saveSettings(part: Partial<UserSettings>) {
    const r = await updateSettings(part);
    if ('error' in r) return setErr('Failed to update settings. Please try again.');
    const merged = { ...prefs, ...(r.data ?? part) };
    setPrefs(merged);
    if (part.theme !== undefined) dispatch(setDarkMode(darkFromTheme(merged.theme)));
    setErr(null);
    setOk('Settings updated successfully!');
  }

  async function changeAvatar(file: File | undefined) {
    if (!file) return;
    const r = await upload(file);
    if ('error' in r) return setErr(errorMessage(r.error, 'Failed to update profile. Please try again.'));
    setForm((f) => ({ ...f, profile_image_url: r.data!.url }));
  }

  return (
    <div className="page">
      <h1 className="page-title">Settings</h1>
      {loadError && <div className="error-bar">{loadError}</div>}
      <div className="settings">
        <nav className="card settings-menu">
          {SECTIONS.map(([id, label]) => (
            <button key={id} className={`side-item ${section === id ? 'active' : ''}`} onClick={() => setSection(id)}>
              {label}
            </button>
          ))}
          <div className="side-sep" />
          <button
            className="side-item"
            style={{ color: 'var(--danger)' }}
            onClick={() => void logout()}
          >
            Sign out
          </button>
        </nav>
        <section className="card">
          <Banners ok={ok} err={err} />
          {section === 'profile' && (
            <form className="form" onSubmit={saveProfile} data-testid="settings-profile">
              <h2>Profile</h2>
              <div className="row gap">
                <Avatar src={form.profile_image_url} name={form.display_name || personName(user)} size={72} />
                <button type="button" className="btn" disabled={uploadState.isLoading} onClick={() => fileRef.current?.click()}>
                  {uploadState.isLoading ? 'Uploading...' : 'Change avatar'}
                </button>
                <input ref={fileRef} type="file" accept="image/png,image/jpeg,image/webp" hidden onChange={(e) => changeAvatar(e.target.files?.[0])} data-testid="avatar-file" />
              </div>
              <label>
                Display Name
                <input name="display_name" value={form.display_name} onChange={(e) => setForm({ ...form, display_name: e.target.value })} />
              </label>
              <label>
                Username
                <input name="username" value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} />
              </label>
              <label>
                Bio
                <textarea name="bio" rows={3} value={form.bio} onChange={(e) => setForm({ ...form, bio: e.target.value })} />
              </label>
              <label>
                Email
                <input name="email" type="email" value={form.email} readOnly aria-describedby="email-note" />
                <span id="email-note" className="muted small">
                  Your sign-in email cannot be changed here.
                </span>
              </label>
              <div className="form-actions">
                <button type="button" className="btn" onClick={() => setSection('appearance')}>
                  Cancel
                </button>
                <button className="btn btn-primary" disabled={profileState.isLoading}>
                  Save
                </button>
              </div>
            </form>
          )}
          {section === 'notifications' && (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                void saveSettings({ notification_email: prefs.notification_email, notification_push: prefs.notification_push });
              }}
              data-testid="settings-notifications"
            >
              <h2>Notifications</h2>
              <label className="switch-row">
                Email notifications
                <input type="checkbox" checked={prefs.notification_email} onChange={(e) => setPrefs({ ...prefs, notification_email: e.target.checked })} />
              </label>
              <label className="switch-row">
                Push notifications
                <input type="checkbox" checked={prefs.notification_push} onChange={(e) => setPrefs({ ...prefs, notification_push: e.target.checked })} />
              </label>
              <div className="form-actions">
                <button className="btn btn-primary" disabled={settingsState.isLoading}>
                  Save
                </button>
              </div>
            </form>
          )}
          {section === 'privacy' && (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                void saveSettings({ privacy_profile: prefs.privacy_profile });
              }}
              data-testid="settings-privacy"
            >
              <h2>Privacy</h2>
              {(
                [
                  ['public', 'Public', 'Anyone can follow you and see your reviews.'],
                  ['friends', 'Friends', 'Follow requests need your approval; approved followers see your reviews.'],
                  ['private', 'Private', 'Follow requests need your approval; only approved followers see your reviews and lists.'],
                ] as const
              ).map(([v, label, hint]) => (
                <label key={v} className="switch-row" style={{ justifyContent: 'flex-start', gap: '0.6rem' }}>
                  <input type="radio" name="privacy" value={v} checked={prefs.privacy_profile === v} onChange={() => setPrefs({ ...prefs, privacy_profile: v })} />
                  <span>
                    {label}
                    <span className="muted small block">{hint}</span>
                  </span>
                </label>
              ))}
              <div className="form-actions">
                <button className="btn btn-primary" disabled={settingsState.isLoading}>
                  Save
                </button>
              </div>
            </form>
          )}
          {section === 'password' && <PasswordForm onDone={setOk} />}
          {section === 'appearance' && (
            <form
              className="form"
              onSubmit={(e) => {
                e.preventDefault();
                void saveSettings({ theme: prefs.theme });
              }}
              data-testid="settings-appearance"
            >
              <h2>Appearance</h2>
              <label>
                Theme
                <select name="theme" value={prefs.theme} onChange={(e) => setPrefs({ ...prefs, theme: e.target.value as UserSettings['theme'] })}>
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                  <option value="system">System</option>
                </select>
              </label>
              <div className="form-actions">
                <button className="btn btn-primary" disabled={settingsState.isLoading}>
                  Save
                </button>
              </div>
            </form>
          )}
        </section>
      </div>
    </div>
  );
}
