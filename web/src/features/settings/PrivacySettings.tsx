import type { PrivacyProfile } from '@app/contracts';
import { useT } from '../../shared/i18n';
import { SettingsSection } from './SettingsSection';

const PRIVACY_CHOICES = [
  ['public', 'settings.public', 'settings.publicHint'],
  ['friends', 'settings.friends', 'settings.friendsHint'],
  ['private', 'settings.private', 'settings.privateHint'],
] as const;

/** Who may follow the member and see their reviews: public, friends or private, each with what it means. */
export function PrivacySettings({ value, onChange, saving, onSave }: { value: PrivacyProfile; onChange: (v: PrivacyProfile) => void; saving: boolean; onSave: () => void }) {
  const t = useT();
  return (
    <SettingsSection title={t('settings.privacy')} testId="settings-privacy" saving={saving} onSave={onSave}>
      {PRIVACY_CHOICES.map(([v, label, hint]) => (
        <label key={v} className="switch-row" style={{ justifyContent: 'flex-start', gap: '0.6rem' }}>
          <input type="radio" name="privacy" value={v} checked={value === v} onChange={() => onChange(v)} />
          <span>
            {t(label)}
            <span className="muted small block">{t(hint)}</span>
          </span>
        </label>
      ))}
    </SettingsSection>
  );
}
