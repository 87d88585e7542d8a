import { Module } from '@nestjs/common';
import { ReviewCardCacheModule } from '../reviews/review-card-cache';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

@Module({
  imports: [ReviewCardCacheModule],
  controllers: [ProductsController],
  providers: [ProductsService],
  exports: [ProductsService],
})
export class ProductsModule {}
