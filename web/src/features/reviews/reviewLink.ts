import type { ReviewView } from '@app/contracts';
import { productSlug } from '../../shared/format';

/** A review's address: on its product's page, else on its author's profile. */
export function reviewLink(r: ReviewView): string {
  const base = window.location.origin;
  if (r.product) return `${base}/product/${productSlug(r.product)}#review-${r.id}`;
  return `${base}/user/${r.user.username}#review-${r.id}`;
}
