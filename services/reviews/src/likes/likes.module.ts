import { Module } from '@nestjs/common';
import { ActivitiesModule } from '../activities/activities.module';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { LikesController } from './likes.controller';
import { LikesEvents } from './likes.events';
import { LikesService } from './likes.service';

@Module({
  imports: [ReviewsModule, ProductsModule, ActivitiesModule],
  controllers: [LikesController, LikesEvents],
  providers: [LikesService],
})
export class LikesModule {}
