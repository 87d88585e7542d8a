import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { CommentsController } from './comments.controller';
import { CommentsService } from './comments.service';

@Module({
  imports: [ReviewsModule],
  controllers: [CommentsController],
  providers: [CommentsService],
})
export class CommentsModule {}
