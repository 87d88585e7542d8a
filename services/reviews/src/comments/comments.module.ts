import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { CommentsController } from './comments.controller';
import { CommentsEvents } from './comments.events';
import { CommentsService } from './comments.service';

@Module({
  imports: [ReviewsModule],
  controllers: [CommentsController, CommentsEvents],
  providers: [CommentsService],
  exports: [CommentsService],
})
export class CommentsModule {}
