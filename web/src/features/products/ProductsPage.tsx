import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CATEGORIES, useProductsQuery } from './productsApi';
import { ProductCard } from './ProductCard';

/** 'Showing {n} product(s) in {category} matching "{text}"' (part 1 §2). */
export function productSummary(n: number, category: string, text: string): string {
  return `Showing ${n} product(s) in ${category} matching "${text}"`;
}

export function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('search') ?? '');
  const category = params.get('category') && (CATEGORIES as readonly string[]).includes(params.get('category')!) ? params.get('category')! : 'All';
  const { data, isLoading, isError } = useProductsQuery({ search: text.trim(), category, limit: 100 });
  const items = data?.items ?? [];
  return (
    <div className="page" data-testid="products-page">
      <div className="page-head">
        <h1 className="page-title">Products</h1>
        <Link to="/create-product" className="btn btn-primary">
          Add Product
        </Link>
      </div>
      <div className="toolbar">
        <input placeholder="Search products..." value={text} onChange={(e) => setText(e.target.value)} aria-label="Search products" />
        <select
          value={category}
          aria-label="Category"
          onChange={(e) => {
            const next = new URLSearchParams(params);
            if (e.target.value === 'All') next.delete('category');
            else next.set('category', e.target.value);
            setParams(next, { replace: true });
          }}
        >
          {CATEGORIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </div>
      {isLoading && <p className="muted">Loading products...</p>}
      {isError && <p className="error-text">Failed to load products. Please try again later.</p>}
      {data && (
        <>
          <p className="muted small" data-testid="products-summary">
            {productSummary(data.total ?? items.length, category, text)}
          </p>
          {items.length === 0 ? (
            <div className="card empty">
              <p>No products found matching your criteria.</p>
              <Link to="/create-product" className="btn btn-primary">
                Add a New Product
              </Link>
            </div>
          ) : (
            <div className="grid grid-2">
              {items.map((p) => (
                <ProductCard key={p.id} product={p} />
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
