import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { Modal } from '../../shared/ui';
import type { SquadView } from '@app/contracts';
import { SQUAD_CATEGORIES, useDeleteSquadMutation, useUpdateSquadMutation } from './squadsApi';
import { useT } from '../../shared/i18n';
import { categoryName } from '../../shared/format';

export function EditSquadModal({ squad, open, onClose }: { squad: SquadView; open: boolean; onClose: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [name, setName] = useState(squad.name);
  const [description, setDescription] = useState(squad.description ?? '');
  const [category, setCategory] = useState(squad.category);
  const [error, setError] = useState<string | null>(null);
  const [update, u] = useUpdateSquadMutation();
  const [del, d] = useDeleteSquadMutation();
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(t('squads.nameRequired'));
    const r = await update({ id: squad.id, name: name.trim(), description: description.trim(), category });
    if ('error' in r) return setError(errorMessage(r.error, t('squads.updateFailed')));
    onClose();
  }
  return (
    <Modal open={open} onClose={onClose} title={t('squads.settingsTitle')}>
      <form className="form" onSubmit={submit} data-testid="squad-settings">
        <label>
          {t('squads.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('common.category')}
          <select value={category} onChange={(e) => setCategory(e.target.value as SquadView['category'])}>
            {SQUAD_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryName(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('common.description')}
          <textarea rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-danger"
            style={{ marginRight: 'auto' }}
            disabled={d.isLoading}
            onClick={async () => {
              if (!window.confirm(t('squads.confirmDelete', { name: squad.name }))) return;
              const r = await del(squad.id);
              if ('error' in r) return setError(errorMessage(r.error, t('squads.deleteFailed')));
              navigate('/my-squads');
            }}
          >
            {t('squads.deleteSquad')}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button className="btn btn-primary" disabled={u.isLoading}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
