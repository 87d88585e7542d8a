import { useCallback, useEffect, useRef, useState } from 'react';
import { History, Package, Search, TrendingUp, X } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { useClickOutside } from '../../shared/useClickOutside';
import { productSlug } from '../../shared/format';
import { productImage, useProductsQuery } from '../products/productsApi';

export const TRENDING_SEARCHES = ['mechanical keyboard', 'wireless earbuds', 'gaming monitor'];
export const RECENT_SEARCHES = ['wireless headphones', 'smart watch', 'portable espresso maker'];

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
  const { data, isFetching } = useProductsQuery({ search: q, limit: 3 }, { skip: !q });
  const matches = (data?.items ?? []).slice(0, 3);

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
        placeholder="Search products..."
        value={text}
        onFocus={() => setOpen(true)}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
          if (e.key === 'Enter' && matches[0]) go(`/product/${productSlug(matches[0])}`);
        }}
      />
      {text && (
        <button className="icon-btn search-clear" aria-label="Clear search" onClick={() => setText('')}>
          <X size={14} aria-hidden="true" />
        </button>
      )}
      {open && (
        <div className="dropdown search-dropdown">
          {!text.trim() ? (
            <div className="search-suggest">
              <div>
                <div className="dropdown-head">Trending</div>
                {TRENDING_SEARCHES.map((s) => (
                  <button key={s} className="dropdown-item" onClick={() => setText(s)}>
                    <TrendingUp size={14} aria-hidden="true" /> {s}
                  </button>
                ))}
              </div>
              <div>
                <div className="dropdown-head">Recent</div>
                {RECENT_SEARCHES.map((s) => (
                  <button key={s} className="dropdown-item" onClick={() => setText(s)}>
                    <History size={14} aria-hidden="true" /> {s}
                  </button>
                ))}
              </div>
            </div>
          ) : isFetching && matches.length === 0 ? (
            <div className="dropdown-empty">Searching...</div>
          ) : matches.length > 0 ? (
            matches.map((p) => (
              <button key={p.id} className="dropdown-item product-match" onClick={() => go(`/product/${productSlug(p)}`)}>
                {productImage(p) ? <img src={productImage(p)!} alt="" className="thumb" /> : <span className="thumb thumb-empty"><Package size={16} aria-hidden="true" /></span>}
                <span>
                  <span className="strong">{p.name}</span>
                  <span className="muted small block">{p.category}</span>
                </span>
              </button>
            ))
          ) : (
            <div className="dropdown-empty">
              <p>No products found for "{text.trim()}"</p>
              <button className="btn btn-primary btn-sm" onClick={() => go('/create-product')}>
                Create New Product
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
