import { Module } from '@nestjs/common';
import { KeywordFilterModule } from '../filters/keyword-filter.module';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

@Module({
  imports: [ProductsModule, ReviewsModule, KeywordFilterModule],
  controllers: [SearchController],
  providers: [SearchService],
})
export class SearchModule {}
