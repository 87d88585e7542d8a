import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { TrendingController } from './trending.controller';

@Module({
  imports: [ReviewsModule],
  controllers: [TrendingController],
})
export class TrendingModule {}
