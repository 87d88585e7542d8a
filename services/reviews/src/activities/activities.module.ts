import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { ActivitiesController } from './activities.controller';
import { ActivitiesEvents } from './activities.events';
import { ActivitiesService } from './activities.service';

@Module({
  imports: [ReviewsModule, ProductsModule],
  controllers: [ActivitiesController, ActivitiesEvents],
  providers: [ActivitiesService],
  exports: [ActivitiesService],
})
export class ActivitiesModule {}
