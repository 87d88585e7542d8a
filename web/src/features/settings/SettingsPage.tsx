import { useEffect, useState } from 'react';
import type { UserSettings } from '@app/contracts';
import { useAppDispatch, useSession } from '../../core/store';
import { setDarkMode, userLoaded } from '../../core/session';
import { errorCode, isSignedOutCode } from '../../core/api';
import { Spinner } from '../../shared/ui';
import { useTimedMessage } from '../../shared/useTimedMessage';
import { useProfileQuery } from '../profile/profileApi';
import { authApi, useMeQuery } from '../auth/authApi';
import { darkFromTheme, useSettingsQuery, useUpdateSettingsMutation } from './settingsApi';
import { PasswordForm } from './PasswordForm';
import { useLogout } from '../auth/useLogout';
import { Banners } from './Banners';
import { ProfileSettings } from './ProfileSettings';
import { SettingsSection } from './SettingsSection';
import { AppearanceSettings } from './AppearanceSettings';
import { PrivacySettings } from './PrivacySettings';
import { MutedAccounts } from './MutedAccounts';
import { applyLanguage, currentLanguage, translate, useT } from '../../shared/i18n';
import { TwoFactorSection } from '../account/TwoFactorSection';
import { ExportButton } from '../account/ExportButton';
import { DeleteAccountSection } from '../account/DeleteAccountSection';
import { KeywordFilters } from '../filters/KeywordFilters';

type Section = 'profile' | 'notifications' | 'privacy' | 'mutes' | 'filters' | 'appearance' | 'password' | 'two-factor' | 'delete-account';
const SECTIONS = [
  ['profile', 'settings.profile'],
  ['notifications', 'settings.notifications'],
  ['privacy', 'settings.privacy'],
  ['mutes', 'settings.mutes'],
  ['filters', 'filters.title'],
  ['appearance', 'settings.appearance'],
  ['password', 'settings.password'],
  ['two-factor', 'settings.twoFactor'],
  ['delete-account', 'deleteAccount.menu'],
] as const satisfies ReadonlyArray<readonly [Section, string]>;

export function SettingsPage() {
  const { token, user, darkMode } = useSession();
  const dispatch = useAppDispatch();
  const logout = useLogout();
  const t = useT();
  const [section, setSection] = useState<Section>('profile');
  const settings = useSettingsQuery(undefined, { skip: !token });
  const profile = useProfileQuery(user?.username ?? '', { skip: !user });
  // The language shown is the account's in effect, as /auth/me names it: the one its mail and notifications are
  // written in. The settings' own copy is not read: an older release stored Turkish there as its default
  // without telling the services that write to the member, so it can disagree (issue 43).
  const me = useMeQuery(undefined, { skip: !token });
  const accountLanguage = me.data?.language ?? user?.language ?? currentLanguage();
  const [updateSettings, settingsState] = useUpdateSettingsMutation();
  const [prefs, setPrefs] = useState<UserSettings>({
    notification_email: true,
    notification_push: true,
    privacy_profile: 'public',
    theme: darkMode ? 'dark' : 'light',
    language: accountLanguage,
  });
  // success banners clear after 3 s
  const [ok, setOk] = useTimedMessage(3000);
  const [err, setErr] = useTimedMessage(6000);

  useEffect(() => {
    if (settings.data) setPrefs((p) => ({ ...p, ...settings.data, language: p.language }));
  }, [settings.data]);
  useEffect(() => setPrefs((p) => ({ ...p, language: accountLanguage })), [accountLanguage]);
  useEffect(() => {
    setOk(null);
    setErr(null);
  }, [section]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!token) return <div className="error-bar">{t('settings.authRequired')}</div>;
  if (settings.isLoading || profile.isLoading || me.isLoading) return <Spinner label={t('settings.loading')} />;
  const loadError = settings.isError
    ? isSignedOutCode(errorCode(settings.error))
      ? t('settings.sessionExpired')
      : t('settings.loadFailed')
    : null;

  async function saveSettings(part: Partial<UserSettings>) {
    // every save names the language in effect (unless it changes it): the service announces its whole set to
    // mail and notifications, and must not announce a language this page never showed
    const r = await updateSettings({ language: accountLanguage, ...part });
    if ('error' in r) return setErr(t('settings.updateFailed'));
    const merged = { ...prefs, ...(r.data ?? part) };
    setPrefs(merged);
    if (part.theme !== undefined) dispatch(setDarkMode(darkFromTheme(merged.theme)));
    if (part.language !== undefined) {
      await applyLanguage(merged.language);
      // the account's copy follows the settings' event; the session and this page know it now
      dispatch(authApi.util.updateQueryData('me', undefined, (u) => void (u.language = merged.language)));
      if (user) dispatch(userLoaded({ ...user, language: merged.language }));
    }
    setErr(null);
    setOk(translate('settings.updated', { lng: merged.language }));
  }

  return (
    <div className="page">
      <h1 className="page-title">{t('settings.title')}</h1>
      {loadError && <div className="error-bar">{loadError}</div>}
      <div className="settings">
        <nav className="card settings-menu" aria-label={t('settings.title')}>
          {SECTIONS.map(([id, label]) => (
            <button key={id} className={`side-item ${section === id ? 'active' : ''}`} onClick={() => setSection(id)}>
              {t(label)}
            </button>
          ))}
          <div className="side-sep" />
          <button
            className="side-item"
            style={{ color: 'var(--danger)' }}
            onClick={() => void logout()}
          >
            {t('settings.signOut')}
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
              title={t('settings.notifications')}
              testId="settings-notifications"
              saving={settingsState.isLoading}
              onSave={() => void saveSettings({ notification_email: prefs.notification_email, notification_push: prefs.notification_push })}
            >
              <label className="switch-row">
                {t('settings.emailNotifications')}
                <input type="checkbox" checked={prefs.notification_email} onChange={(e) => setPrefs({ ...prefs, notification_email: e.target.checked })} />
              </label>
              <label className="switch-row">
                {t('settings.pushNotifications')}
                <input type="checkbox" checked={prefs.notification_push} onChange={(e) => setPrefs({ ...prefs, notification_push: e.target.checked })} />
              </label>
            </SettingsSection>
          )}
          {section === 'privacy' && (
            <PrivacySettings
              value={prefs.privacy_profile}
              onChange={(v) => setPrefs({ ...prefs, privacy_profile: v })}
              saving={settingsState.isLoading}
              onSave={() => void saveSettings({ privacy_profile: prefs.privacy_profile })}
            />
          )}
          {section === 'privacy' && <ExportButton />}
          {section === 'mutes' && <MutedAccounts />}
          {section === 'password' && <PasswordForm onDone={setOk} />}
          {section === 'two-factor' && <TwoFactorSection />}
          {section === 'filters' && <KeywordFilters />}
          {section === 'delete-account' && <DeleteAccountSection />}
          {section === 'appearance' && (
            <AppearanceSettings
              value={prefs}
              onChange={(v) => setPrefs({ ...prefs, ...v })}
              saving={settingsState.isLoading}
              onSave={() => void saveSettings({ theme: prefs.theme, language: prefs.language })}
            />
          )}
        </section>
      </div>
    </div>
  );
}
