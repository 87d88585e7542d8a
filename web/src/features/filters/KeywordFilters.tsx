import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../core/api';
import { longDate } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { useAddKeywordFilterMutation, useDeleteKeywordFilterMutation, useKeywordFiltersQuery } from './filtersApi';

/** Days a new filter lasts; 0 keeps it until deleted. */
const DURATIONS = [0, 1, 7, 30] as const;
const DAY_MS = 86_400_000;

/** Settings: the member's keyword filters (issue 22 §2): add with whole word and duration, list, delete. */
export function KeywordFilters() {
  const t = useT();
  const { data, isLoading, isError } = useKeywordFiltersQuery();
  const [add, addState] = useAddKeywordFilterMutation();
  const [remove, removeState] = useDeleteKeywordFilterMutation();
  const [phrase, setPhrase] = useState('');
  const [wholeWord, setWholeWord] = useState(false);
  const [days, setDays] = useState<number>(0);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const expires_at = days ? new Date(Date.now() + days * DAY_MS).toISOString() : null;
    const r = await add({ phrase: phrase.trim(), whole_word: wholeWord, expires_at });
    if ('error' in r) return setError(errorMessage(r.error, t('filters.addFailed')));
    setError(null);
    setPhrase('');
  }

  return (
    <div className="form" data-testid="settings-filters">
      <h2>{t('filters.title')}</h2>
      <p className="muted small">{t('filters.hint')}</p>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('filters.phrase')}
          <input data-testid="filter-phrase" value={phrase} maxLength={100} onChange={(e) => setPhrase(e.target.value)} />
        </label>
        <label className="switch-row">
          {t('filters.wholeWord')}
          <input type="checkbox" checked={wholeWord} onChange={(e) => setWholeWord(e.target.checked)} />
        </label>
        <label>
          {t('filters.duration')}
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {DURATIONS.map((d) => (
              <option key={d} value={d}>
                {d === 0 ? t('filters.forever') : t('filters.days', { count: d })}
              </option>
            ))}
          </select>
        </label>
        {error && <p className="error-text">{error}</p>}
        <button className="btn btn-primary" data-testid="filter-add" disabled={!phrase.trim() || addState.isLoading}>
          {t('filters.add')}
        </button>
      </form>
      {isLoading && <p className="muted">{t('common.loading')}</p>}
      {isError && <p className="error-text">{t('filters.loadFailed')}</p>}
      {data && data.length === 0 && <p className="muted">{t('filters.empty')}</p>}
      <ul className="plain-list">
        {(data ?? []).map((f) => (
          <li key={f.id} className="person-row" data-testid="filter-row">
            <div className="person-text">
              <div className="strong ellipsis">{f.phrase}</div>
              <div className="muted small">
                {f.whole_word ? t('filters.wholeWord') : t('filters.anywhere')} ·{' '}
                {!f.active ? t('filters.expired') : f.expires_at ? t('filters.until', { date: longDate(f.expires_at) }) : t('filters.forever')}
              </div>
            </div>
            <button className="btn btn-sm" disabled={removeState.isLoading} onClick={() => void remove(f.id)}>
              {t('filters.delete')}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
