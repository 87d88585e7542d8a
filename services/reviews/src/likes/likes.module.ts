import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { LikesController } from './likes.controller';
import { LikesService } from './likes.service';

@Module({
  imports: [ReviewsModule, ProductsModule],
  controllers: [LikesController],
  providers: [LikesService],
})
export class LikesModule {}
