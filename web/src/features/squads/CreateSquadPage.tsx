import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { SQUAD_CATEGORIES, useCreateSquadMutation } from './squadsApi';
import { useT } from '../../shared/i18n';
import { categoryName } from '../../shared/format';

export function CreateSquadPage() {
  const t = useT();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [category, setCategory] = useState('General');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [create, state] = useCreateSquadMutation();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(t('squads.nameRequired'));
    const r = await create({ name: name.trim(), description: description.trim(), category: category || 'General' });
    if ('error' in r) return setError(errorMessage(r.error, t('squads.createFailed')));
    // the new squad's own page: its creator is its admin and starts there (issue 43 §5)
    navigate(`/squads/${r.data.id}`);
  }

  return (
    <div className="page">
      <h1 className="page-title">{t('squads.create')}</h1>
      <form className="card form" onSubmit={submit} data-testid="create-squad-form">
        <label>
          {t('squads.name')}
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
        </label>
        <label>
          {t('common.category')}
          <select name="category" value={category} onChange={(e) => setCategory(e.target.value)}>
            {SQUAD_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryName(c)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('common.description')}
          <textarea name="description" rows={4} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
        </label>
        {error && <div className="error-bar">{error}</div>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => navigate('/my-squads')}>
            {t('common.cancel')}
          </button>
          <button className="btn btn-primary" disabled={!name.trim() || state.isLoading}>
            {state.isLoading ? t('squads.creating') : t('squads.create')}
          </button>
        </div>
      </form>
    </div>
  );
}
