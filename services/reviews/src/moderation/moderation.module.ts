import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { SiteRolesModule } from '../read-models/site-roles.module';
import { ReportsModule } from '../reports/reports.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { ModerationController } from './moderation.controller';
import { ModerationService } from './moderation.service';

@Module({
  imports: [ReviewsModule, CommentsModule, ReportsModule, SiteRolesModule],
  controllers: [ModerationController],
  providers: [ModerationService],
})
export class ModerationModule {}
