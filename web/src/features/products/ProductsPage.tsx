import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { ProductView } from '@app/contracts';
import { CATEGORIES, useProductsQuery } from './productsApi';
import { ProductCard } from './ProductCard';
import { useT } from '../../shared/i18n';
import { useStaged } from '../../shared/useStaged';
import { FirstScreenOr } from '../../shared/first-screen';
import { translate } from '../../shared/i18n';
import { categoryName } from '../../shared/format';

/** 'Showing {n} product(s) in {category} matching "{text}"' (part 1 §2). */
export function productSummary(n: number, category: string, text: string): string {
  return translate('products.summary', { count: n, category, text });
}

const NO_PRODUCTS: ProductView[] = [];

export function ProductsPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const category = params.get('category') && (CATEGORIES as readonly string[]).includes(params.get('category')!) ? params.get('category')! : 'All';
  const { data, isLoading, isError } = useProductsQuery({ search: text.trim(), category, limit: 100 });
  const items = data?.items ?? NO_PRODUCTS;
  // four cards per transition (two columns from 600 px: four fill a phone's or a laptop's first screen),
  // none with the reply itself, whose render React does at once (an external store's change)
  const shown = useStaged(items, 0, 4);
  const page = (
    <div className="page" data-testid="products-page">
      <div className="page-head">
        <h1 className="page-title">{t('products.title')}</h1>
        <Link to="/create-product" className="btn btn-primary">
          {t('products.add')}
        </Link>
      </div>
      <div className="toolbar">
        <input placeholder={t('products.search')} value={text} onChange={(e) => setText(e.target.value)} aria-label={t('products.searchLabel')} />
        <select
          value={category}
          aria-label={t('common.category')}
          onChange={(e) => {
            const next = new URLSearchParams(params);
            if (e.target.value === 'All') next.delete('category');
            else next.set('category', e.target.value);
            setParams(next, { replace: true });
          }}
        >
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
                {categoryName(c)}
              </option>
          ))}
        </select>
      </div>
      {isLoading && <p className="muted">{t('products.loading')}</p>}
      {isError && <p className="error-text">{t('products.error')}</p>}
      {data && (
        <>
          <p className="muted small" data-testid="products-summary">
            {productSummary(data.total ?? items.length, categoryName(category), text)}
          </p>
          {items.length === 0 ? (
            <div className="card empty">
              <p>{t('products.empty')}</p>
              <Link to="/create-product" className="btn btn-primary">
                {t('products.addNew')}
              </Link>
            </div>
          ) : (
            <div className="grid grid-2">
              {shown.map((p, i) => (
                <ProductCard key={p.id} product={p} eager={i < 2} />
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
  // the server's first screen of this address (its first card's picture) stays until the list comes
  return isLoading ? <FirstScreenOr part="content">{page}</FirstScreenOr> : page;
}
