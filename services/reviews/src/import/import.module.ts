import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { CatalogueImportService } from './catalogue-import.service';

/** The bulk import of products and reviews: no route, called in process by the launcher (docs/decisions/import.md). */
@Module({
  imports: [ProductsModule, ReviewsModule],
  providers: [CatalogueImportService],
  exports: [CatalogueImportService],
})
export class ImportModule {}
