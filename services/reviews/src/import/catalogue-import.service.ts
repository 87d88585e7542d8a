import { HttpException, Injectable } from '@nestjs/common';
import { ImportReport, importRows, UserCardsReadModel } from '@app/platform';
import { EventBus } from '@app/bus';
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
    return importRows(this.bus, ImportProductDto, rows, {
      row: async ({ user_id, ...dto }) => {
        await this.assertMember(user_id);
        const doc = await this.products.add(user_id, dto);
        return { id: doc._id, slug: doc.slug };
      },
      batch: async (batch) => {
        const unknown = await this.unknownMembers(batch);
        const added = await this.products.addMany(batch.filter((row) => !unknown.has(row.user_id)).map(({ user_id, ...dto }) => ({ userId: user_id, dto })));
        let next = 0;
        return batch.map((row): { id: string; slug: string } | HttpException => {
          if (unknown.has(row.user_id)) return unknownMember();
          const doc = added[next++];
          return { id: doc._id, slug: doc.slug };
        });
      },
    });
  }

  importReviews(rows: readonly unknown[]): Promise<ImportReport<{ id: string }>> {
    return importRows(this.bus, ImportReviewDto, rows, {
      row: async ({ user_id, ...dto }) => {
        await this.assertMember(user_id);
        return { id: (await this.reviews.write(user_id, dto))._id };
      },
      batch: async (batch) => {
        const unknown = await this.unknownMembers(batch);
        const members = batch.filter((row) => !unknown.has(row.user_id));
        const written = await this.reviews.writeMany(members.map(({ user_id, ...dto }) => ({ userId: user_id, dto })));
        let next = 0;
        return batch.map((row) => {
          if (unknown.has(row.user_id)) return unknownMember();
          const review = written[next++];
          return review instanceof HttpException ? review : { id: review._id };
        });
      },
    });
  }

  private async unknownMembers(batch: readonly { user_id: string }[]): Promise<Set<string>> {
    return new Set(await this.cards.unknownIds([...new Set(batch.map((row) => row.user_id))]));
  }

  /** What a request's token proves: a registered member who has not been erased. */
  private async assertMember(userId: string): Promise<void> {
    if (!(await this.cards.card(userId)) || (await this.cards.isDeleted(userId))) throw unknownMember();
  }
}

const unknownMember = () => new ReviewsException('NOT_FOUND', 'Unknown member');
