import { Module } from '@nestjs/common';
import { ReviewsCountersRepair } from './counters.repair';
import { ReviewCountsBackfill } from './review-counts.backfill';

/** The boot-time counter repair of the reviews service, and the move of review counts out of older reviews. */
@Module({ providers: [ReviewCountsBackfill, ReviewsCountersRepair] })
export class CountersModule {}
