import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { SiteRolesModule } from '../read-models/site-roles.module';
import { ReviewsModule } from '../reviews/reviews.module';
import { ReportsController } from './reports.controller';
import { ReportsEvents } from './reports.events';
import { ReportsService } from './reports.service';

@Module({
  imports: [ReviewsModule, CommentsModule, SiteRolesModule],
  controllers: [ReportsController, ReportsEvents],
  providers: [ReportsService],
  exports: [ReportsService],
})
export class ReportsModule {}
