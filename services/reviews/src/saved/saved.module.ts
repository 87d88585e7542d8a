import { Module } from '@nestjs/common';
import { ProductsModule } from '../products/products.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { SavedController } from './saved.controller';
import { SavedEvents } from './saved.events';
import { SavedService } from './saved.service';

@Module({
  imports: [ProductsModule, ReviewsModule],
  controllers: [SavedController, SavedEvents],
  providers: [SavedService],
})
export class SavedModule {}
