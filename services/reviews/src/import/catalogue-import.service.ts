import { HttpException, Injectable } from '@nestjs/common';
import { ImportReport, importRows, UserCardsReadModel } from '@app/platform';
import { EventBus } from '@app/bus';
import { ProductDoc } from '../products/product.collection';
import { ProductsService } from '../products/products.service';
import { ReviewsService } from '../reviews/reviews.service';
import { ReviewsException } from '../reviews.errors';
import { ImportProductDto, ImportReviewDto } from './import.dto';

/**
 * Products and reviews in bulk (docs/decisions/import.md): each row through the create route's
 * DTO and the same service call as `POST /products` and `POST /reviews` (slugs, one review per
 * member and product, ratings, tags), with the same events, a batch per transaction, written at once
 * (`ProductsService.addMany`, `ReviewsService.writeMany`). A row names its member, who must be one this
 * service knows (`user.registered` handled).
 */
@Injectable()
export class CatalogueImportService {
  constructor(
    private readonly products: ProductsService,
    private readonly reviews: ReviewsService,
    private readonly cards: UserCardsReadModel,
    private readonly bus: EventBus,
  ) {}

  importProducts(rows: readonly unknown[]): Promise<ImportReport<{ id: string; slug: string }>> {
    const reply = (doc: ProductDoc) => ({ id: doc._id, slug: doc.slug });
    return importRows(this.bus, ImportProductDto, rows, {
      row: async ({ user_id, ...dto }) => {
        await this.assertMember(user_id);
        return reply(await this.products.add(user_id, dto));
      },
      batch: (batch) => this.byKnownMembers(batch, (entries) => this.products.addMany(entries), reply),
    });
  }

  importReviews(rows: readonly unknown[]): Promise<ImportReport<{ id: string }>> {
    return importRows(this.bus, ImportReviewDto, rows, {
      row: async ({ user_id, ...dto }) => {
        await this.assertMember(user_id);
        return { id: (await this.reviews.write(user_id, dto))._id };
      },
      batch: (batch) =>
        this.byKnownMembers(
          batch,
          (entries) => this.reviews.writeMany(entries),
          (review) => (review instanceof HttpException ? review : { id: review._id }),
        ),
    });
  }

  /**
   * A batch's rows of known members written at once by `write`, in order, each answered in its
   * row's place by `reply`; a row whose member is unknown or erased is refused there.
   */
  private async byKnownMembers<D extends { user_id: string }, W, R>(
    batch: readonly D[],
    write: (entries: { userId: string; dto: Omit<D, 'user_id'> }[]) => Promise<W[]>,
    reply: (written: W) => R | HttpException,
  ): Promise<(R | HttpException)[]> {
    const unknown = new Set(await this.cards.unknownIds([...new Set(batch.map((row) => row.user_id))]));
    const written = await write(batch.filter((row) => !unknown.has(row.user_id)).map(({ user_id, ...dto }) => ({ userId: user_id, dto })));
    let next = 0;
    return batch.map((row) => (unknown.has(row.user_id) ? unknownMember() : reply(written[next++])));
  }

  /** What a request's token proves: a registered member who has not been erased. */
  private async assertMember(userId: string): Promise<void> {
    if (!(await this.cards.card(userId)) || (await this.cards.isDeleted(userId))) throw unknownMember();
  }
}

const unknownMember = () => new ReviewsException('NOT_FOUND', 'Unknown member');
