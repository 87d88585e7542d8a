import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorMessage } from '../../core/api';
import { Avatar, Skeleton } from '../../shared/ui';
import { extraCount, memberLabel } from '../../shared/format';
import type { SquadView } from '@app/contracts';
import { exploreJoinLabel, useDiscoverSquadsQuery, useRequestJoinMutation } from '../squads/squadsApi';
import { useFeedQuery } from '../reviews/reviewsApi';
import { useProductsQuery } from '../products/productsApi';
import { ReviewCard } from '../reviews/ReviewCard';
import { ProductCard } from '../products/ProductsPage';
import { JoinModal } from '../squads/JoinModal';

/** Trending categories of the Products & Reviews tab, mapped onto the catalogue's categories. */
export const EXPLORE_CATEGORIES: Array<[string, string]> = [
  ['Electronics', 'Electronics'],
  ['Fashion', 'Fashion'],
  ['Home & Living', 'Home'],
  ['Beauty', 'Beauty'],
  ['Sports', 'Fitness'],
  ['Books', 'Books'],
  ['Gaming', 'Gaming'],
  ['Food', 'Kitchen'],
];

function SquadCard({ squad }: { squad: SquadView }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [, state] = useRequestJoinMutation();
  const label = exploreJoinLabel(squad);
  const sample = (squad.sample_members ?? []).slice(0, 3);
  const extra = extraCount(squad.member_count, 3);
  return (
    <div className="card squad-card" data-testid="squad-card">
      <div className="row gap">
        <Avatar name={squad.name} size={44} />
        <div style={{ flex: 1, minWidth: 0 }}>
          <div className="strong ellipsis">{squad.name}</div>
          <div className="muted small">
            {squad.category} · {memberLabel(squad.member_count)}
          </div>
        </div>
      </div>
      <p className="muted small" style={{ margin: 0 }}>
        {squad.description || 'No description available'}
      </p>
      <div className="avatar-stack">
        {sample.map((m) => (
          <Avatar key={m.username} src={m.profile_image_url} name={m.display_name || m.username} size={28} />
        ))}
        {extra && <span className="muted small" style={{ marginLeft: 6 }}>{extra}</span>}
      </div>
      <div className="row gap">
        <Link to={`/squads/${squad.id}`} className="btn btn-sm">
          View Details
        </Link>
        <button className="btn btn-sm btn-primary push-right" disabled={label !== 'Join Squad' || state.isLoading} onClick={() => setOpen(true)} data-testid="join-squad">
          {label}
        </button>
      </div>
      {error && (
        <div className="error-bar small">
          {error}{' '}
          <button className="link" onClick={() => setOpen(true)}>
            Try Again
          </button>
        </div>
      )}
      <JoinModal
        squad={squad}
        open={open}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
      />
    </div>
  );
}

function SquadsTab() {
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState(1);
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(input.trim());
      setPages(1);
    }, 300);
    return () => clearTimeout(t);
  }, [input]);
  return (
    <div>
      <div className="toolbar">
        <input placeholder="Search squads..." value={input} onChange={(e) => setInput(e.target.value)} />
        <button className="btn btn-primary" onClick={() => navigate('/create-squad')}>
          Create Your Own Squad
        </button>
      </div>
      <div className="grid grid-2">
        {Array.from({ length: pages }, (_, i) => (
          <SquadPage key={`${search}-${i}`} page={i + 1} search={search} last={i + 1 === pages} onMore={() => setPages(pages + 1)} />
        ))}
      </div>
    </div>
  );
}

function SquadPage({ page, search, last, onMore }: { page: number; search: string; last: boolean; onMore: () => void }) {
  const { data, isLoading, isError, error, refetch, isFetching } = useDiscoverSquadsQuery({ page, search });
  if (isLoading) return <Skeleton />;
  if (isError)
    return (
      <div className="error-bar">
        {errorMessage(error, 'Failed to load squads')}{' '}
        <button className="link" onClick={() => refetch()}>
          Try Again
        </button>
      </div>
    );
  if (!data) return null;
  return (
    <>
      {page === 1 && data.items.length === 0 && <p className="muted">No squads found.</p>}
      {data.items.map((s) => (
        <SquadCard key={s.id} squad={s} />
      ))}
      {last && page < data.totalPages && (
        <div style={{ gridColumn: '1 / -1' }}>
          <button className="btn btn-block" onClick={onMore} disabled={isFetching}>
            Load More Squads
          </button>
        </div>
      )}
    </>
  );
}

function ProductsTab() {
  const [category, setCategory] = useState<string | null>(null);
  const feed = useFeedQuery({ page: 1, limit: 10 });
  const products = useProductsQuery({ category: category ?? undefined, limit: 12 }, { skip: !category });
  const popular = [...(feed.data?.items ?? [])].sort((a, b) => Number(b.like_count ?? 0) - Number(a.like_count ?? 0));
  return (
    <div>
      <h3>Trending categories</h3>
      <div className="chips" style={{ marginBottom: '1rem' }}>
        {EXPLORE_CATEGORIES.map(([label, value]) => (
          <button key={label} className={`chip ${category === value ? 'chip-on' : ''}`} onClick={() => setCategory(category === value ? null : value)}>
            {label}
          </button>
        ))}
      </div>
      {category && (
        <>
          {products.isLoading && <p className="muted">Loading products...</p>}
          {products.data && products.data.items.length === 0 && <p className="muted">No products found matching your criteria.</p>}
          <div className="grid grid-2">
            {products.data?.items.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </div>
        </>
      )}
      <h3 style={{ marginTop: '1rem' }}>Popular reviews</h3>
      {feed.isLoading && <Skeleton />}
      {feed.data && popular.length === 0 && <p className="muted">Popular reviews will appear here</p>}
      {popular.map((r) => (
        <ReviewCard key={r.id} review={r} />
      ))}
    </div>
  );
}

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
