import { Injectable } from '@nestjs/common';
import { cardText, LinkCardView } from '@app/contracts';
import { AudienceService } from '../audience/audience.service';
import { ProductsService } from '../products/products.service';
import { ReviewsException } from '../reviews.errors';
import { ReviewsService } from '../reviews/reviews.service';

/**
 * Link previews of a product and of a review for anyone (no viewer): a review shows only when a
 * visitor could read it, so never one hidden by moderation or by an author whose profile is not public.
 */
@Injectable()
export class LinkCardsService {
  constructor(
    private readonly products: ProductsService,
    private readonly reviews: ReviewsService,
    private readonly audience: AudienceService,
  ) {}

  async product(idOrSlug: string): Promise<LinkCardView> {
    const p = await this.products.get(idOrSlug, '');
    const rated = p.review_count > 0 ? `${p.rating.toFixed(1)}/5 from ${p.review_count} review${p.review_count === 1 ? '' : 's'}. ` : '';
    return {
      type: 'product',
      title: p.brand ? `${p.name} by ${p.brand}` : p.name,
      description: cardText(`${rated}${p.description}`),
      image: p.image,
      image_alt: p.image_alt,
      rating: p.review_count > 0 ? Math.round(p.rating * 10) / 10 : null,
    };
  }

  /** The catalogue's page (/products): its size, and the picture of its first card as every member's list starts with it. */
  async catalogue(): Promise<LinkCardView> {
    const { items, total } = await this.products.list({ page: 1, limit: 1 }, 0, 1, '');
    const first = items[0];
    return {
      type: 'website',
      title: 'Products',
      description: `${total} product${total === 1 ? '' : 's'} rated and reviewed by the community.`,
      image: first?.image ?? null,
      image_alt: first?.image ? first.image_alt || first.name : null,
      rating: null,
    };
  }

  /** A hidden review is not there (404); one by an author who is not public has no card (403: the app decides for the viewer). */
  async review(id: string): Promise<LinkCardView> {
    const doc = await this.reviews.find(id);
    if (doc.hidden_at) throw new ReviewsException('REVIEW_NOT_FOUND', 'Review not found');
    if (await this.audience.isRestricted(doc.user_id)) throw new ReviewsException('FORBIDDEN', 'This review is not public');
    const [view] = await this.reviews.present([doc], null);
    const about = view.product?.name ?? view.title;
    return {
      type: 'article',
      title: about ? `${view.user.display_name} on ${about}` : `${view.user.display_name} (@${view.user.username})`,
      // a spoiler stays behind its warning in a preview too
      description: view.has_spoilers ? 'Contains spoilers' : cardText(view.content),
      image: view.has_spoilers ? null : (view.images[0] ?? null),
      image_alt: view.has_spoilers ? null : (view.image_alts[0] ?? null),
      rating: view.rating,
    };
  }
}
