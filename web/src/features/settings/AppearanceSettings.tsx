import type { UserSettings } from '@app/contracts';
import { LANGUAGES, useT } from '../../shared/i18n';
import { SettingsSection } from './SettingsSection';

type Appearance = Pick<UserSettings, 'theme' | 'language'>;

/** Theme and interface language, saved together; the language applies once the server has stored it. */
export function AppearanceSettings({ value, onChange, saving, onSave }: { value: Appearance; onChange: (v: Appearance) => void; saving: boolean; onSave: () => void }) {
  const t = useT();
  return (
    <SettingsSection title={t('settings.appearance')} testId="settings-appearance" saving={saving} onSave={onSave}>
      <label>
        {t('settings.theme')}
        <select name="theme" value={value.theme} onChange={(e) => onChange({ ...value, theme: e.target.value as UserSettings['theme'] })}>
          <option value="light">{t('settings.light')}</option>
          <option value="dark">{t('settings.dark')}</option>
          <option value="system">{t('settings.system')}</option>
        </select>
      </label>
      <label>
        {t('language.label')}
        <select name="language" value={value.language} onChange={(e) => onChange({ ...value, language: e.target.value as UserSettings['language'] })}>
          {LANGUAGES.map((l) => (
            // each language named in itself
            <option key={l} value={l} lang={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
      </label>
    </SettingsSection>
  );
}
