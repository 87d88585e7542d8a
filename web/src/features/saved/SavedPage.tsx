import { useState } from 'react';
import { api, listOf } from '../../core/api';
import { Skeleton } from '../../shared/ui';
import type { ProductView, ReviewView } from '@app/contracts';
import { ProductCard } from '../products/ProductCard';
import { ReviewCard } from '../reviews/ReviewCard';
import { useT } from '../../shared/i18n';

type Kind = 'products' | 'reviews';

const savedApi = api.injectEndpoints({
  endpoints: (b) => ({
    saved: b.query<Array<ProductView | ReviewView>, Kind>({
      query: (type) => ({ url: '/saved', params: { type, limit: 100 } }),
      // the items themselves, by the tab's kind (a saved review carries its own `product`, which is not the saved item)
      transformResponse: (r: unknown) => listOf<ProductView | ReviewView>(r).items,
      providesTags: ['Saved'],
    }),
  }),
});

export const { useSavedQuery } = savedApi;

export function SavedPage() {
  const t = useT();
  const [tab, setTab] = useState<Kind>('products');
  // currentData, not data: while the other tab loads, `data` still holds the previous tab's items
  // (products drawn as reviews crashed the page)
  const { currentData: data, isFetching, isError, refetch } = useSavedQuery(tab);
  return (
    <div className="page" data-testid="saved-page">
      <h1 className="page-title">{t('saved.title')}</h1>
      <div className="tabs">
        <button className={`tab ${tab === 'products' ? 'active' : ''}`} onClick={() => setTab('products')} data-testid="saved-tab-products">
          {t('saved.products')}
        </button>
        <button className={`tab ${tab === 'reviews' ? 'active' : ''}`} onClick={() => setTab('reviews')} data-testid="saved-tab-reviews">
          {t('saved.reviews')}
        </button>
      </div>
      {!data && isFetching && <Skeleton />}
      {isError && (
        <div className="error-bar">
          {t('saved.loadFailed')}{' '}
          <button className="link" onClick={() => refetch()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {data && data.length === 0 && (
        <div className="card empty">{tab === 'products' ? t('saved.noProducts') : t('saved.noReviews')}</div>
      )}
      {data && tab === 'products' && (
        <div className="grid grid-2">
          {(data as ProductView[]).map((p) => (
            <ProductCard key={p.id} product={p} />
          ))}
        </div>
      )}
      {data && tab === 'reviews' && (data as ReviewView[]).map((r) => <ReviewCard key={r.id} review={{ ...r, saved: true }} />)}
    </div>
  );
}
