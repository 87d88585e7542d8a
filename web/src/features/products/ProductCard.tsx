import { memo, useEffect, useState } from 'react';
import { Bookmark, BookmarkCheck, Heart, Package, PenLine, Share2, Star } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { oneDecimal, price, productSlug } from '../../shared/format';
import type { ProductView } from '@app/contracts';
import { productImage, useLikeProductMutation, useSaveProductMutation } from './productsApi';
import { useT } from '../../shared/i18n';
import { AddToListMenu } from '../lists/AddToListMenu';

/**
 * Liked and saved come with the product (the viewer's own marks), so they are right on first paint. `eager`: a card
 * on the first screen, whose picture is fetched at once (it is often the page's largest paint). A memo: the
 * list draws its cards again each time it grows by a step (useStaged) and at every change of its query's
 * state, and a card whose props did not change is skipped.
 */
export const ProductCard = memo(function ProductCard({ product, eager = false }: { product: ProductView; eager?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [liked, setLiked] = useState(!!product.liked);
  const [likes, setLikes] = useState(Number(product.like_count ?? 0));
  const [saved, setSaved] = useState(!!product.saved);
  // a refetched product (a save or like on another screen) brings the server's marks
  useEffect(() => setSaved(!!product.saved), [product.saved]);
  useEffect(() => {
    setLiked(!!product.liked);
    setLikes(Number(product.like_count ?? 0));
  }, [product.liked, product.like_count]);
  const [copied, flash] = useTimedFlag(2000);
  const [like] = useLikeProductMutation();
  const [save] = useSaveProductMutation();
  const img = productImage(product);
  const author = product.user?.display_name || product.user?.name || product.user?.username || t('products.unknownUser');
  const path = `/product/${productSlug(product)}`;
  const stop = (e: React.MouseEvent) => e.stopPropagation();

  return (
    <article className="card product-card" onClick={() => navigate(path)} data-testid="product-card">
      <div className="product-img">
        {img ? <img src={img} alt={product.image_alt || product.name} loading={eager ? 'eager' : 'lazy'} fetchPriority={eager ? 'high' : 'auto'} /> : <Package size={48} aria-hidden="true" />}
        <button
          className="save-toggle"
          aria-label={saved ? t('products.unsaveProduct') : t('products.saveProduct')}
          aria-pressed={saved}
          onClick={async (e) => {
            stop(e);
            setSaved(!saved);
            const r = await save({ id: product.id, save: !saved });
            if ('error' in r) {
              setSaved(saved);
              dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('products.saveFailed')), kind: 'error' }));
            }
          }}
        >
          {saved ? <BookmarkCheck size={18} aria-hidden="true" /> : <Bookmark size={18} aria-hidden="true" />}
        </button>
        <AddToListMenu productId={product.id} icon />
      </div>
      <div className="product-body">
        <div className="row gap small muted">
          <span className="initial">{author[0]?.toUpperCase()}</span> {author}
        </div>
        <h2 className="product-name" style={{ margin: 0 }}>
          {/* the keyboard's way into the card (the card's own click is for the mouse) */}
          <Link to={path} className="plain-link" onClick={stop}>
            {product.name}
          </Link>
        </h2>
        {product.brand && <div className="muted small">{product.brand}</div>}
        <p className="muted small" style={{ margin: 0 }}>
          {product.description}
        </p>
        <div className="row gap">
          <span><Star size={14} aria-hidden="true" /> {oneDecimal(product.rating)}</span>
          <span className="muted small">{t('products.reviews', { count: product.review_count })}</span>
          <span className="price push-right">{price(product.price)}</span>
        </div>
        <div className="product-actions">
          <button
            className={`action ${liked ? 'liked' : ''}`}
            onClick={async (e) => {
              stop(e);
              const before = { liked, likes };
              setLiked(!liked);
              setLikes(likes + (liked ? -1 : 1));
              const r = await like(product.id);
              if ('error' in r) {
                setLiked(before.liked);
                setLikes(before.likes);
                dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('review.likeFailed')), kind: 'error' }));
              } else if (r.data) {
                setLiked(r.data.liked);
                setLikes(r.data.like_count);
              }
            }}
          >
            <Heart size={16} aria-hidden="true" fill={liked ? 'currentColor' : 'none'} /> {t('products.like')} {likes > 0 ? likes : ''}
          </button>
          <button
            className="action"
            onClick={(e) => {
              stop(e);
              navigate(`${path}?review=1`);
            }}
          >
            <PenLine size={16} aria-hidden="true" /> {t('products.review')}
          </button>
          <button
            className="action"
            onClick={async (e) => {
              stop(e);
              if (await copyText(`${window.location.origin}${path}`)) flash();
            }}
          >
            {copied ? t('common.copied') : <><Share2 size={16} aria-hidden="true" /> {t('common.share')}</>}
          </button>
        </div>
      </div>
    </article>
  );
});
