import { useSearchParams } from 'react-router-dom';
import { SquadsTab } from './SquadsTab';
import { ProductsTab } from './ProductsTab';
import { useT } from '../../shared/i18n';

export function ExplorePage() {
  const t = useT();
  // the tab lives in the address (/explore?tab=squads), so "Explore Squads" links open the squads tab
  const [params, setParams] = useSearchParams();
  const tab: 'products' | 'squads' = params.get('tab') === 'squads' ? 'squads' : 'products';
  const setTab = (next: 'products' | 'squads') => setParams(next === 'squads' ? { tab: 'squads' } : {}, { replace: true });
  return (
    <div className="page">
      <h1 className="page-title">{t('explore.title')}</h1>
      <div className="tabs">
        <button className={`tab ${tab === 'products' ? 'active' : ''}`} onClick={() => setTab('products')}>
          {t('explore.productsTab')}
        </button>
        <button className={`tab ${tab === 'squads' ? 'active' : ''}`} onClick={() => setTab('squads')}>
          {t('explore.squadsTab')}
        </button>
      </div>
      {tab === 'products' ? <ProductsTab /> : <SquadsTab />}
    </div>
  );
}
