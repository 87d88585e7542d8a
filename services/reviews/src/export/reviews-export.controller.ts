import { Controller, Get, Inject } from '@nestjs/common';
import { AuthenticatedUser, CurrentUser, ExportPart, exportParts, MemberExportModule } from '@app/platform';
import { STORE, Store } from '@app/store';
import { commentsCollection } from '../comments/comment.collection';
import { likesCollection } from '../likes/like.collection';
import { mediaCollection } from '../media/media.collection';
import { productsCollection, productSearchKey } from '../products/product.collection';
import { productLikesCollection } from '../products/product-like.collection';
import { reportsCollection } from '../reports/report.collection';
import { reviewsCollection } from '../reviews/review.collection';
import { savedCollection } from '../saved/saved.collection';

/** What the member wrote, liked, saved, uploaded and reported. */
const PARTS: ExportPart[] = [
  { key: 'reviews', collection: reviewsCollection, filter: (id) => ({ user_id: id }), omit: ['product_key'] },
  { key: 'comments', collection: commentsCollection, filter: (id) => ({ user_id: id }) },
  { key: 'review_likes', collection: likesCollection, filter: (id) => ({ user_id: id }) },
  { key: 'product_likes', collection: productLikesCollection, filter: (id) => ({ user_id: id }) },
  { key: 'products', collection: productsCollection, filter: (id) => ({ user_id: id }), omit: ['rating_sum', productSearchKey.field] },
  { key: 'saved', collection: savedCollection, filter: (id) => ({ user_id: id }) },
  { key: 'media', collection: mediaCollection, filter: (id) => ({ owner_id: id }), omit: ['etag'] },
  { key: 'reports', collection: reportsCollection, filter: (id) => ({ reporter_id: id }) },
];

@Controller('reviews/me')
export class ReviewsExportController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get('export')
  export(@CurrentUser() member: AuthenticatedUser) {
    return exportParts(this.store, PARTS, member.id);
  }
}

export const ReviewsExport = MemberExportModule.withController(ReviewsExportController);
