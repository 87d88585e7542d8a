import { Module } from '@nestjs/common';
import { ReviewsCountersRepair } from './counters.repair';

/** The boot-time counter repair of the reviews service. */
@Module({ providers: [ReviewsCountersRepair] })
export class CountersModule {}
