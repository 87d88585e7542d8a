import { Module } from '@nestjs/common';
import { KeywordFilterModule } from '../filters/keyword-filter.module';
import { ProductsModule } from '../products/products.module';
import { ReviewCounts } from './review-counts.service';
import { ReviewPresenter } from './review-presenter';
import { ReviewsController } from './reviews.controller';
import { ReviewsService } from './reviews.service';

@Module({
  imports: [ProductsModule, KeywordFilterModule],
  controllers: [ReviewsController],
  providers: [ReviewsService, ReviewPresenter, ReviewCounts],
  exports: [ReviewsService, ReviewPresenter, ReviewCounts],
})
export class ReviewsModule {}
