import { Module } from '@nestjs/common';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';
import { CatalogueSearchService } from './catalogue-search.service';

@Module({
  controllers: [ProductsController],
  providers: [ProductsService, CatalogueSearchService],
  exports: [ProductsService],
})
export class ProductsModule {}
