import { useEffect, useState } from 'react';
import type { UserSettings } from '@app/contracts';
import { useAppDispatch, useSession } from '../../core/store';
import { setDarkMode } from '../../core/session';
import { errorStatus } from '../../core/api';
import { Spinner } from '../../shared/ui';
import { useTimedMessage } from '../../shared/useTimedMessage';
import { useProfileQuery } from '../profile/profileApi';
import { darkFromTheme, useSettingsQuery, useUpdateSettingsMutation } from './settingsApi';
import { PasswordForm } from './PasswordForm';
import { useLogout } from '../auth/useLogout';
import { Banners } from './Banners';
import { ProfileSettings } from './ProfileSettings';
import { SettingsSection } from './SettingsSection';
import { TwoFactorSection } from '../account/TwoFactorSection';

type Section = 'profile' | 'notifications' | 'privacy' | 'appearance' | 'password' | 'two-factor';
const SECTIONS: Array<[Section, string]> = [
  ['profile', 'Profile'],
  ['notifications', 'Notifications'],
  ['privacy', 'Privacy'],
  ['appearance', 'Appearance'],
  ['password', 'Password'],
  ['two-factor', 'Two-factor'],
];

const PRIVACY_CHOICES = [
  ['public', 'Public', 'Anyone can follow you and see your reviews.'],
  ['friends', 'Friends', 'Follow requests need your approval; approved followers see your reviews.'],
  ['private', 'Private', 'Follow requests need your approval; only approved followers see your reviews and lists.'],
] as const;

export function SettingsPage() {
  const { token, user, darkMode } = useSession();
  const dispatch = useAppDispatch();
  const logout = useLogout();
  const [section, setSection] = useState<Section>('profile');
  const settings = useSettingsQuery(undefined, { skip: !token });
  const profile = useProfileQuery(user?.username ?? '', { skip: !user });
  const [updateSettings, settingsState] = useUpdateSettingsMutation();
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

  async function saveSettings(part: Partial<UserSettings>) {
    const r = await updateSettings(part);
    if ('error' in r) return setErr('Failed to update settings. Please try again.');
    const merged = { ...prefs, ...(r.data ?? part) };
    setPrefs(merged);
    if (part.theme !== undefined) dispatch(setDarkMode(darkFromTheme(merged.theme)));
    setErr(null);
    setOk('Settings updated successfully!');
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
            <ProfileSettings
              profile={profile.data}
              onCancel={() => setSection('appearance')}
              onSaved={(m) => {
                setErr(null);
                setOk(m);
              }}
              onError={setErr}
            />
          )}
          {section === 'notifications' && (
            <SettingsSection
              title="Notifications"
              testId="settings-notifications"
              saving={settingsState.isLoading}
              onSave={() => void saveSettings({ notification_email: prefs.notification_email, notification_push: prefs.notification_push })}
            >
              <label className="switch-row">
                Email notifications
                <input type="checkbox" checked={prefs.notification_email} onChange={(e) => setPrefs({ ...prefs, notification_email: e.target.checked })} />
              </label>
              <label className="switch-row">
                Push notifications
                <input type="checkbox" checked={prefs.notification_push} onChange={(e) => setPrefs({ ...prefs, notification_push: e.target.checked })} />
              </label>
            </SettingsSection>
          )}
          {section === 'privacy' && (
            <SettingsSection title="Privacy" testId="settings-privacy" saving={settingsState.isLoading} onSave={() => void saveSettings({ privacy_profile: prefs.privacy_profile })}>
              {PRIVACY_CHOICES.map(([v, label, hint]) => (
                <label key={v} className="switch-row" style={{ justifyContent: 'flex-start', gap: '0.6rem' }}>
                  <input type="radio" name="privacy" value={v} checked={prefs.privacy_profile === v} onChange={() => setPrefs({ ...prefs, privacy_profile: v })} />
                  <span>
                    {label}
                    <span className="muted small block">{hint}</span>
                  </span>
                </label>
              ))}
            </SettingsSection>
          )}
          {section === 'password' && <PasswordForm onDone={setOk} />}
          {section === 'two-factor' && <TwoFactorSection />}
          {section === 'appearance' && (
            <SettingsSection title="Appearance" testId="settings-appearance" saving={settingsState.isLoading} onSave={() => void saveSettings({ theme: prefs.theme })}>
              <label>
                Theme
                <select name="theme" value={prefs.theme} onChange={(e) => setPrefs({ ...prefs, theme: e.target.value as UserSettings['theme'] })}>
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                  <option value="system">System</option>
                </select>
              </label>
            </SettingsSection>
          )}
        </section>
      </div>
    </div>
  );
}
