import { Module } from '@nestjs/common';
import { ReviewsModule } from '../reviews/reviews.module';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

@Module({
  imports: [ReviewsModule],
  controllers: [ReportsController],
  providers: [ReportsService],
})
export class ReportsModule {}
