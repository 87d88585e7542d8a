import { useState } from 'react';
import type { ListView, ListVisibility } from '@app/contracts';
import { errorMessage } from '../../core/api';
import { useT } from '../../shared/i18n';
import { useCreateListMutation, useUpdateListMutation } from './listsApi';

// the contracts' LIST_VISIBILITIES, copied: a value import would bundle the server's validators
const VISIBILITIES: ListVisibility[] = ['public', 'followers', 'private'];

/** Creates a list, or edits one when `list` is given ("Want to try" keeps its name). */
export function ListForm({ list, onDone }: { list?: ListView; onDone: () => void }) {
  const t = useT();
  const [name, setName] = useState(list?.name ?? '');
  const [description, setDescription] = useState(list?.description ?? '');
  const [visibility, setVisibility] = useState<ListVisibility>(list?.visibility ?? 'public');
  const [error, setError] = useState<string | null>(null);
  const [create, cState] = useCreateListMutation();
  const [update, uState] = useUpdateListMutation();
  const fixedName = !!list?.is_default;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const body = { ...(!fixedName && { name: name.trim() }), description: description.trim(), visibility };
    const r = list ? await update({ id: list.id, ...body }) : await create(body);
    if ('error' in r) return setError(errorMessage(r.error, t('lists.saveFailed')));
    onDone();
  }

  return (
    <form className="stack gap" onSubmit={submit} data-testid="list-form">
      {!fixedName && (
        <label className="field">
          <span>{t('lists.name')}</span>
          <input className="input" value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} data-testid="list-name" />
        </label>
      )}
      <label className="field">
        <span>{t('lists.description')}</span>
        <textarea className="input" value={description} maxLength={500} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('lists.visibility')}</span>
        <select className="input" value={visibility} onChange={(e) => setVisibility(e.target.value as ListVisibility)} data-testid="list-visibility">
          {VISIBILITIES.map((v) => (
            <option key={v} value={v}>
              {t(`lists.${v}`)}
            </option>
          ))}
        </select>
      </label>
      {error && <div className="error-text small">{error}</div>}
      <div className="row gap">
        <button className="btn btn-primary" type="submit" disabled={cState.isLoading || uState.isLoading} data-testid="list-submit">
          {t('common.save')}
        </button>
        <button className="btn" type="button" onClick={onDone}>
          {t('lists.cancel')}
        </button>
      </div>
    </form>
  );
}
