import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { LikesController } from './likes.controller';
import { LikesService } from './likes.service';

@Module({
  imports: [ReviewsModule],
  controllers: [LikesController],
  providers: [LikesService],
})
export class LikesModule {}
