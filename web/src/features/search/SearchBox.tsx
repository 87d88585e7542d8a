import { useCallback, useEffect, useRef, useState } from 'react';
import { History, Search, TrendingUp, X } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { useT } from '../../shared/i18n';
import { useClickOutside } from '../../shared/useClickOutside';
import { useSearchQuery } from './searchApi';
import { SEARCH_GROUP_TITLES, SEARCH_GROUPS, searchEntries } from './searchEntries';

/** Suggested searches, by text key (the words are the interface language's). */
export const TRENDING_SEARCHES = ['search.trend1', 'search.trend2', 'search.trend3'] as const;
export const RECENT_SEARCHES = ['search.recent1', 'search.recent2', 'search.recent3'] as const;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  const q = useDebounced(text.trim(), 200);
  const t = useT();
  const { data, isFetching } = useSearchQuery({ q }, { skip: !q });
  const matches = data && q ? searchEntries(data, t('search.spoilerReview'), (count) => t('live.tagReviews', { count })) : [];
  // The highlighted option (arrow keys); -1 is none, and Enter then opens the results page.
  const [active, setActive] = useState(-1);
  useEffect(() => setActive(-1), [q]);

  const go = (path: string) => {
    setOpen(false);
    setText('');
    navigate(path);
  };

  return (
    <div
      className="search"
      ref={ref}
      data-testid="search-box"
      // Tab past the last suggestion closes the list, as a click outside does
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget as Node | null) && setOpen(false)}
    >
      <span className="search-icon" aria-hidden>
        <Search size={16} aria-hidden="true" />
      </span>
      <input
        type="search"
        placeholder={t('search.placeholder')}
        aria-label={t('search.placeholder')}
        role="combobox"
        aria-expanded={open && matches.length > 0}
        aria-controls="search-listbox"
        aria-activedescendant={active >= 0 && matches[active] ? `search-option-${active}` : undefined}
        value={text}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((i) => Math.min(i + 1, matches.length - 1));
          }
          if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((i) => Math.max(i - 1, -1));
          }
          if (e.key === 'Enter' && text.trim()) go(matches[active]?.path ?? `/search?q=${encodeURIComponent(text.trim())}`);
        }}
      />
      {text && (
        <button className="icon-btn search-clear" aria-label={t('search.clear')} onClick={() => setText('')}>
          <X size={14} aria-hidden="true" />
        </button>
      )}
      {open && (
        <div className="dropdown search-dropdown">
          {!text.trim() ? (
            <div className="search-suggest">
              <div>
                <div className="dropdown-head">{t('search.trending')}</div>
                {TRENDING_SEARCHES.map((s) => (
                  <button key={s} className="dropdown-item" onClick={() => setText(t(s))}>
                    <TrendingUp size={14} aria-hidden="true" /> {t(s)}
                  </button>
                ))}
              </div>
              <div>
                <div className="dropdown-head">{t('search.recent')}</div>
                {RECENT_SEARCHES.map((s) => (
                  <button key={s} className="dropdown-item" onClick={() => setText(t(s))}>
                    <History size={14} aria-hidden="true" /> {t(s)}
                  </button>
                ))}
              </div>
            </div>
          ) : isFetching && matches.length === 0 ? (
            <div className="dropdown-empty">{t('search.searching')}</div>
          ) : matches.length > 0 ? (
            <>
            <div id="search-listbox" role="listbox" aria-label={t('search.placeholder')}>
              {SEARCH_GROUPS.map((group) => {
                const entries = matches.map((m, i) => ({ m, i })).filter(({ m }) => m.group === group);
                if (entries.length === 0) return null;
                return (
                  <div key={group} role="group" aria-label={t(SEARCH_GROUP_TITLES[group])}>
                    <div className="dropdown-head">{t(SEARCH_GROUP_TITLES[group])}</div>
                    {entries.map(({ m, i }) => (
                      <div
                        key={m.key}
                        id={`search-option-${i}`}
                        role="option"
                        aria-selected={i === active}
                        className={`dropdown-item${i === active ? ' active' : ''}`}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => go(m.path)}
                      >
                        <span>
                          <span className="strong">{m.label}</span>
                          <span className="muted small block">{m.detail}</span>
                        </span>
                      </div>
                    ))}
                  </div>
                );
              })}
            </div>
            <button className="dropdown-item" onClick={() => go(`/search?q=${encodeURIComponent(text.trim())}`)}>
              <Search size={14} aria-hidden="true" /> {t('search.all')}
            </button>
            </>
          ) : (
            <div className="dropdown-empty">
              <p>{t('search.none', { q: text.trim() })}</p>
              <button className="btn btn-primary btn-sm" onClick={() => go('/create-product')}>
                {t('products.createTitle')}
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
