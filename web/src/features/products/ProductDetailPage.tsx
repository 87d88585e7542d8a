import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { useState, type FormEvent } from 'react';
import { ArrowLeft, Package } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { errorCode, errorMessage } from '../../core/api';
import { Spinner, Stars } from '../../shared/ui';
import { FirstScreenOr } from '../../shared/first-screen';
import { useTimedMessage } from '../../shared/useTimedMessage';
import { categoryName, price } from '../../shared/format';
import { productImage, useProductQuery } from './productsApi';
import { reviewErrorText, useCreateReviewMutation, useReviewsQuery, type ReviewSort } from '../reviews/reviewsApi';
import { ReviewCard } from '../reviews/ReviewCard';
import { SaveProductButton } from './SaveProductButton';
import { AddToListMenu } from '../lists/AddToListMenu';
import { useT } from '../../shared/i18n';
import { useStaged } from '../../shared/useStaged';
import type { ReviewView } from '@app/contracts';
import type { TextKey } from '../../shared/i18n/translate';

/** The sort selector's entries; the server orders the pages (`GET /reviews?sort=`), so paging keeps the order. */
export const REVIEW_SORTS: ReadonlyArray<{ id: ReviewSort; label: TextKey }> = [
  { id: 'recent', label: 'products.sortRecent' },
  { id: 'rating_desc', label: 'products.sortHighest' },
  { id: 'rating_asc', label: 'products.sortLowest' },
];

const NO_REVIEWS: ReviewView[] = [];

export function ProductDetailPage() {
  const t = useT();
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const product = useProductQuery(id, { skip: !id });
  useDocumentTitle(product.data?.name ?? (product.isError ? '' : undefined));
  const [sort, setSort] = useState<ReviewSort>('recent');
  const [page, setPage] = useState(1);
  const reviews = useReviewsQuery({ productId: product.data?.id, page: 1, limit: 10 * page, sort }, { skip: !product.data });
  const [formOpen, setFormOpen] = useState(params.get('review') === '1');
  const [rating, setRating] = useState(5);
  const [content, setContent] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [posted, setPosted] = useTimedMessage(3000);
  const [create, createState] = useCreateReviewMutation();
  // the product fills a phone's first screen: its reviews are drawn in short tasks after it
  const shownReviews = useStaged(reviews.data?.items ?? NO_REVIEWS, 0, 2);

  if (!id) return <div className="card error-box">{t('products.invalidId')}</div>;
  if (product.isLoading) return <FirstScreenOr part="content" />;
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

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!content.trim()) return;
    setFormError(null);
    const r = await create({ product_id: p.id, rating, title: p.name, content: content.trim() });
    if ('error' in r) return setFormError(reviewErrorText(r.error as never));
    setContent('');
    setRating(5);
    setFormOpen(false);
    setPosted(t('products.posted'));
  }

  return (
    <div className="page" data-testid="product-detail">
      <Link to="/products" className="small">
        <ArrowLeft size={14} aria-hidden="true" /> {t('products.back')}
      </Link>
      <section className="card product-detail" style={{ marginTop: '0.6rem' }}>
        {img ? <img className="hero-img" src={img} alt={p.image_alt || p.name} fetchPriority="high" /> : <div className="hero-img product-img"><Package size={64} aria-hidden="true" /></div>}
        <div>
          {p.brand && <div className="muted">{p.brand}</div>}
          <h1>{p.name}</h1>
          <div className="row gap">
            <Stars value={p.rating} size={20} />
            <span className="muted">{t('products.reviews', { count })}</span>
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
          <div className="row gap wrap">
            <button className="btn btn-primary" onClick={() => setFormOpen((o) => !o)} data-testid="write-review">
              {t('products.writeReview')}
            </button>
            <SaveProductButton productId={p.id} />
            <AddToListMenu productId={p.id} />
          </div>
        </div>
      </section>
      {posted && <div className="success-bar">{posted}</div>}
      {formOpen && (
        <form className="card form" onSubmit={submit} data-testid="review-form">
          <h2 className="panel-title">{t('products.writeReview')}</h2>
          <div className="field">
            <span className="label">{t('composer.rating')}</span>
            <Stars value={rating} size={24} onChange={setRating} />
          </div>
          <label>
            {t('products.yourReview')}
            <textarea rows={4} value={content} maxLength={5000} onChange={(e) => setContent(e.target.value)} placeholder={t('products.reviewPlaceholder')} />
          </label>
          {formError && <div className="error-bar">{formError}</div>}
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setFormOpen(false)}>
              {t('common.cancel')}
            </button>
            <button className="btn btn-primary" disabled={!content.trim() || createState.isLoading}>
              {t('products.submitReview')}
            </button>
          </div>
        </form>
      )}
      <div className="page-head">
        <h2 style={{ margin: 0 }}>{t('products.customerReviews', { count: reviews.data?.meta.total ?? count })}</h2>
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

