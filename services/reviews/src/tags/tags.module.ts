import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { TagsBackfill } from './tags.backfill';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

@Module({
  imports: [ReviewsModule],
  controllers: [TagsController],
  providers: [TagsService, TagsBackfill],
  exports: [TagsService],
})
export class TagsModule {}
