import { useState } from 'react';
import { SquadsTab } from './SquadsTab';
import { ProductsTab } from './ProductsTab';
import { useT } from '../../shared/i18n';

export function ExplorePage() {
  const t = useT();
  const [tab, setTab] = useState<'products' | 'squads'>('products');
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
