import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { Suspense, lazy, useState } from 'react';
import { ArrowLeft, Package } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { errorCode, errorMessage } from '../../core/api';
import { Spinner, Stars } from '../../shared/ui';
import { FirstScreenOr } from '../../shared/first-screen';
import { useTimedMessage } from '../../shared/useTimedMessage';
import { categoryName, price } from '../../shared/format';
import { productImage, useProductQuery } from './productsApi';
import { useReviewsQuery, type ReviewSort } from '../reviews/reviewsApi';
import { ReviewCard } from '../reviews/ReviewCard';
import { SaveProductButton } from './SaveProductButton';
import { AddToListMenu } from '../lists/AddToListMenu';
import { useT } from '../../shared/i18n';
import { useStaged } from '../../shared/useStaged';
import { NotFoundPage } from '../../shared/NotFoundPage';
import { JoinPrompt, useVisitor } from '../auth/JoinPrompt';
import type { ReviewView } from '@app/contracts';
import type { TextKey } from '../../shared/i18n/translate';

// the composer's code is asked for when "Write a Review" opens it: a product's first screen does not need it
const Composer = lazy(() => import('../composer/Composer').then((m) => ({ default: m.Composer })));

/** The sort selector's entries; the server orders the pages (`GET /reviews?sort=`), so paging keeps the order. */
export const REVIEW_SORTS: ReadonlyArray<{ id: ReviewSort; label: TextKey }> = [
  { id: 'recent', label: 'products.sortRecent' },
  { id: 'rating_desc', label: 'products.sortHighest' },
  { id: 'rating_asc', label: 'products.sortLowest' },
];

const NO_REVIEWS: ReviewView[] = [];

export function ProductDetailPage() {
  const t = useT();
  const visitor = useVisitor();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const product = useProductQuery(id, { skip: !id });
  useDocumentTitle(product.data?.name ?? (product.isError ? '' : undefined));
  const [sort, setSort] = useState<ReviewSort>('recent');
  const [page, setPage] = useState(1);
  const reviews = useReviewsQuery({ productId: product.data?.id, page: 1, limit: 10 * page, sort }, { skip: !product.data });
  const [formOpen, setFormOpen] = useState(params.get('review') === '1');
  const [posted, setPosted] = useTimedMessage(3000);
  // the product fills a phone's first screen: its reviews are drawn in short tasks after it
  const shownReviews = useStaged(reviews.data?.items ?? NO_REVIEWS, 0, 2);

  if (!id) return <div className="card error-box">{t('products.invalidId')}</div>;
  if (product.isLoading) return <FirstScreenOr part="content" />;
  // an unknown or deleted product is the app's 404 screen (the server answered 404 for the page too)
  if (product.isError && ['PRODUCT_NOT_FOUND', 'NOT_FOUND'].includes(errorCode(product.error) ?? '')) return <NotFoundPage />;
  if (product.isError || !product.data)
    return (
      <div className="card error-box" data-testid="product-error">
        <p className="error-text">
          {['PRODUCT_NOT_FOUND', 'NOT_FOUND'].includes(errorCode(product.error) ?? '')
            ? errorMessage(product.error, t('products.notFound'))
            : errorMessage(product.error, t('products.loadFailed'))}
        </p>
        <Link to="/products">{t('products.back')}</Link>
      </div>
    );
  const p = product.data;
  const features = p.features;
  const count = p.review_count;
  const img = productImage(p);

  return (
    <div className="page" data-testid="product-detail">
      {!visitor && (
        <Link to="/products" className="small">
          <ArrowLeft size={14} aria-hidden="true" /> {t('products.back')}
        </Link>
      )}
      <section className="card product-detail" style={{ marginTop: '0.6rem' }}>
        {img ? <img className="hero-img" src={img} alt={p.image_alt || p.name} fetchPriority="high" /> : <div className="hero-img product-img"><Package size={64} aria-hidden="true" /></div>}
        <div>
          {p.brand && <div className="muted">{p.brand}</div>}
          <h1>{p.name}</h1>
          <div className="row gap">
            <Stars value={p.rating} size={20} />
            <span className="muted" data-testid="product-review-count">{t('products.reviews', { count })}</span>
          </div>
          <div className="price" style={{ fontSize: '1.6rem', margin: '0.6rem 0' }}>
            {price(p.price)}
          </div>
          {p.category && <span className="pill">{categoryName(p.category)}</span>}
          <p className="pre-wrap">{p.description}</p>
          {features.length > 0 && (
            <>
              <h2 className="panel-title">{t('products.keyFeatures')}</h2>
              <ul>
                {features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            </>
          )}
          {visitor ? (
            <JoinPrompt text={t('truth.joinToReview')} />
          ) : (
            <div className="row gap wrap">
              <button className="btn btn-primary" onClick={() => setFormOpen((o) => !o)} data-testid="write-review">
                {t('products.writeReview')}
              </button>
              <SaveProductButton productId={p.id} saved={p.saved} />
              <AddToListMenu productId={p.id} />
            </div>
          )}
        </div>
      </section>
      {posted && <div className="success-bar">{posted}</div>}
      {formOpen && !visitor && (
        // the same composer as Home's, its product fixed to this one (issue 43 §5)
        <div data-testid="review-form">
          <Suspense fallback={<Spinner />}>
            <Composer
              fixed={{ id: p.id, name: p.name }}
              onPosted={() => {
                setFormOpen(false);
                setPosted(t('products.posted'));
              }}
            />
          </Suspense>
        </div>
      )}
      <div className="page-head">
        <h2 style={{ margin: 0 }} data-testid="product-reviews-heading">{t('products.customerReviews', { count })}</h2>
        <select
          value={sort}
          onChange={(e) => {
            setSort(e.target.value as ReviewSort);
            setPage(1);
          }}
          aria-label={t('products.sortReviews')}
          data-testid="review-sort"
          style={{ width: 'auto' }}
        >
          {REVIEW_SORTS.map((s) => (
            <option key={s.id} value={s.id}>
              {t(s.label)}
            </option>
          ))}
        </select>
      </div>
      {reviews.isLoading && <Spinner />}
      {reviews.isError && <p className="error-text">{t('myReviews.loadFailed')}</p>}
      {reviews.data && reviews.data.items.length === 0 && <div className="card empty">{t('products.noReviews')}</div>}
      {shownReviews.map((r) => (
        <ReviewCard key={r.id} review={r} />
      ))}
      {reviews.data && reviews.data.meta.total > reviews.data.items.length && (
        <button className="btn btn-block" onClick={() => setPage((x) => x + 1)} disabled={reviews.isFetching}>
          {reviews.isFetching ? t('common.loading') : t('common.loadMore')}
        </button>
      )}
    </div>
  );
}

