import { useState } from 'react';
import { Skeleton } from '../../shared/ui';
import { useFeedQuery } from '../reviews/reviewsApi';
import { useProductsQuery } from '../products/productsApi';
import { ReviewCard } from '../reviews/ReviewCard';
import { ProductCard } from '../products/ProductCard';
import { useT } from '../../shared/i18n';
import type { TextKey } from '../../shared/i18n/translate';

/** Trending categories of the Products & Reviews tab, mapped onto the catalogue's categories. */
const EXPLORE_CATEGORIES: Array<[TextKey, string]> = [
  ['explore.catElectronics', 'Electronics'],
  ['explore.catFashion', 'Fashion'],
  ['explore.catHome', 'Home'],
  ['explore.catBeauty', 'Beauty'],
  ['explore.catSports', 'Fitness'],
  ['explore.catBooks', 'Books'],
  ['explore.catGaming', 'Gaming'],
  ['explore.catFood', 'Kitchen'],
];

export function ProductsTab() {
  const t = useT();
  const [category, setCategory] = useState<string | null>(null);
  const feed = useFeedQuery({ page: 1, limit: 10 });
  const products = useProductsQuery({ category: category ?? undefined, limit: 12 }, { skip: !category });
  const popular = [...(feed.data?.items ?? [])].sort((a, b) => Number(b.like_count ?? 0) - Number(a.like_count ?? 0));
  return (
    <div>
      <h2 className="panel-title">{t('products.trendingCategories')}</h2>
      <div className="chips" style={{ marginBottom: '1rem' }}>
        {EXPLORE_CATEGORIES.map(([label, value]) => (
          <button key={label} className={`chip ${category === value ? 'chip-on' : ''}`} onClick={() => setCategory(category === value ? null : value)}>
            {t(label)}
          </button>
        ))}
      </div>
      {category && (
        <>
          {products.isLoading && <p className="muted">{t('products.loading')}</p>}
          {products.data && products.data.items.length === 0 && <p className="muted">{t('products.empty')}</p>}
          <div className="grid grid-2">
            {products.data?.items.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </div>
        </>
      )}
      <h2 className="panel-title" style={{ marginTop: '1rem' }}>{t('explore.popular')}</h2>
      {feed.isLoading && <Skeleton />}
      {feed.data && popular.length === 0 && <p className="muted">{t('explore.popularEmpty')}</p>}
      {popular.map((r) => (
        <ReviewCard key={r.id} review={r} />
      ))}
    </div>
  );
}
