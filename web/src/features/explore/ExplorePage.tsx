import { useState } from 'react';
import { SquadsTab } from './SquadsTab';
import { ProductsTab } from './ProductsTab';

export function ExplorePage() {
  const [tab, setTab] = useState<'products' | 'squads'>('products');
  return (
    <div className="page">
      <h1 className="page-title">Explore</h1>
      <div className="tabs">
        <button className={`tab ${tab === 'products' ? 'active' : ''}`} onClick={() => setTab('products')}>
          Products & Reviews
        </button>
        <button className={`tab ${tab === 'squads' ? 'active' : ''}`} onClick={() => setTab('squads')}>
          Squads
        </button>
      </div>
      {tab === 'products' ? <ProductsTab /> : <SquadsTab />}
    </div>
  );
}
