import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { CatalogueImportService } from './catalogue-import.service';
import { CatalogueImportController } from './catalogue-import.controller';

/** The bulk import of products and reviews: called in process by the embedded launcher, over /api/internal/import with IMPORT_TOKEN by the others (docs/decisions/import.md). */
@Module({
  imports: [ProductsModule, ReviewsModule],
  controllers: [CatalogueImportController],
  providers: [CatalogueImportService],
  exports: [CatalogueImportService],
})
export class ImportModule {}
