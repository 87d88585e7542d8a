import type { FormEvent, ReactNode } from 'react';
import { useT } from '../../shared/i18n';

/** One settings form: its title, its fields, and Save (plus any `actions` before it). */
export function SettingsSection({
  title,
  testId,
  saving,
  onSave,
  actions,
  children,
}: {
  title: string;
  testId: string;
  saving: boolean;
  onSave: () => void;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const t = useT();
  function submit(e: FormEvent) {
    e.preventDefault();
    onSave();
  }
  return (
    <form className="form" onSubmit={submit} data-testid={testId}>
      <h2>{title}</h2>
      {children}
      <div className="form-actions">
        {actions}
        <button className="btn btn-primary" disabled={saving}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
